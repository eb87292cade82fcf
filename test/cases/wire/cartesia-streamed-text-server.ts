import type { WebSocket } from 'ws';
import { answerCartesiaFlush, sendCartesiaContext } from './cartesia-context.js';
import { type WsWire, wsServer } from './servers.js';

/** A Cartesia `/tts/websocket` server that speaks every context whole, and what it got and sent. */
export interface CartesiaStreamedTextServer {
  wire: WsWire;
  /** Each non-empty `transcript` the server got, in order. */
  transcripts: string[];
  /** The audio the server sent, in order: each flushed clause's, then the rest's at the end of input. */
  spoken: Buffer[];
}

/**
 * Serves streamed text on Cartesia's `/tts/websocket` as Cartesia does (ws on loopback, not our
 * mock): each flush is answered with `audio` and `flush_done`, and the end of input
 * (`continue: false`) with `audio` and `done`. `onTranscript(text)` sees each transcript as it
 * arrives (to open a test's gate).
 */
export async function cartesiaStreamedTextServer(
  audio: Buffer,
  onTranscript: (text: string) => void = () => {},
): Promise<CartesiaStreamedTextServer> {
  const transcripts: string[] = [];
  const spoken: Buffer[] = [];
  const flushes = new Map<string | undefined, number>();
  const wire = await wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as {
        context_id: string;
        transcript?: string;
        continue?: boolean;
        flush?: boolean;
      };
      if (answerCartesiaFlush(ws, m, flushes, audio)) {
        spoken.push(audio);
        return;
      }
      if (m.transcript) {
        transcripts.push(m.transcript);
        onTranscript(m.transcript);
      }
      if (m.continue !== false) return;
      spoken.push(audio);
      sendCartesiaContext(ws, m.context_id, audio);
    });
  });
  return { wire, transcripts, spoken };
}
