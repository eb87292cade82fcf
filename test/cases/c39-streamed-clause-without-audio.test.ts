/**
 * C39, streamed text on one provider context: Cartesia's `/tts/websocket` answers a flushed
 * clause with `flush_done` and no audio (the text was not spoken), then speaks the next clause.
 * The clause is not silently skipped: on a route with a backup and `midStream: 'resume'` the
 * backup speaks from that clause on, so every clause is heard once; on Cartesia alone the call
 * ends with MidStreamError (a ProtocolError saying no audio came), never a clean end with a
 * sentence missing. The server speaks Cartesia's wire on its own (ws): a flush is answered with
 * the audio of the text since the last flush, then `flush_done`; the end of input with the
 * audio of the rest, then `done`.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { MidStreamError, ProtocolError } from '../../src/index.js';
import { concat, drain, pcmSignal, recordingSpeechServer, router, wsServer } from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const TEXT = 'Hello there, my friend. How are you today? Fine thanks, see you.';
/** The tokens an LLM streams: the words of TEXT with the space after each. */
const TOKENS = TEXT.split(/(?<= )/);

/** What the servers speak for a text: 0.1 s of PCM s16le at 24 kHz, distinct per text. */
const speech = (text: string): Buffer => pcmSignal(2400, 24_000, (text.trim().length % 7) + 1);

/** The caller's text as an LLM streams it. */
async function* tokens(): AsyncGenerator<string> {
  for (const token of TOKENS) yield token;
}

/**
 * A Cartesia /tts/websocket server that speaks every flushed segment of a context but the one
 * containing `silent`, which it answers with `flush_done` alone. Records each segment asked.
 */
async function cartesiaSkipping(silent: string) {
  const segments: string[] = [];
  const wire = await wsServer((ws: WebSocket) => {
    let text = '';
    let flushes = 0;
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as {
        context_id: string;
        transcript?: string;
        continue?: boolean;
        flush?: boolean;
        cancel?: boolean;
      };
      if (m.cancel) return;
      const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
      text += m.transcript ?? '';
      const speak = () => {
        if (text.trim() !== '') {
          segments.push(text.trim());
          if (!text.includes(silent)) {
            const data = speech(text).toString('base64');
            send({ type: 'chunk', data, done: false, status_code: 206 });
          }
        }
        text = '';
      };
      if (m.flush) {
        speak();
        send({ type: 'flush_done', flush_done: true, flush_id: ++flushes, done: false, status_code: 206 });
      } else if (m.continue === false) {
        speak();
        send({ type: 'done', done: true, status_code: 200 });
      }
    });
  });
  return { wire, segments };
}

const cartesia = (url: string) => ({
  kind: 'cartesia' as const,
  baseUrl: url,
  apiKey: 'sk_car_case',
  tts: { voices: { agent: 'v' }, transport: 'websocket' as const },
});

describe('C39: a clause of streamed text answered with no audio is never silently skipped', () => {
  it('C39: Cartesia flush_done with no audio for a clause: the backup speaks from that clause on (midStream resume)', async () => {
    const a = await cartesiaSkipping('How are');
    const b = await recordingSpeechServer(speech('backup'));
    const r = router(
      ttsRouteWithBackup(
        'a',
        cartesia(a.wire.url),
        `${b.wire.url}/v1`,
        { midStream: 'resume' },
        { agent: 'x' },
      ),
    );
    const stream = r.tts({ text: tokens(), voice: 'agent', format: PCM24K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    // a spoke its first clause; the clause it skipped and the rest come from b, each once.
    expect(a.segments[0]).toBe('Hello there,');
    expect(a.segments[1]).toContain('How are you today?');
    expect(b.inputs).toEqual(['my friend. How are you today?', 'Fine thanks, see you.']);
    expect(
      concat(items.map((c) => c.data)).equals(
        concat([speech('Hello there, '), speech('backup'), speech('backup')]),
      ),
    ).toBe(true);
    expect(items.filter((c) => c.discontinuity).length).toBe(1);
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
    expect(ProtocolError.isInstance(result.attempts[0]!.error)).toBe(true);
  });

  it('C39: Cartesia alone: MidStreamError after the first clause, never a clean end missing a sentence', async () => {
    const a = await cartesiaSkipping('How are');
    const r = router(ttsRouteWithBackup('a', cartesia(a.wire.url), undefined));
    const { items, error } = await drain(r.tts({ text: tokens(), voice: 'agent', format: PCM24K }));
    expect(concat(items.map((c) => c.data)).equals(speech('Hello there, '))).toBe(true);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect((cause as ProtocolError).message).toBe(
      "Provider 'a' returned no audio for text it was given (clause 2 of its request)",
    );
    expect((error as MidStreamError).partialOutput).toBe(true);
  });
});
