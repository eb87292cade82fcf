/**
 * A Deepgram listen server of its own (loopback `ws`, not voxroute's mock) and the caller's
 * audio feed, shared by the tests of sockets closed or lost during a silence.
 */
import { expect } from 'vitest';
import type { WebSocket } from 'ws';
import type { TranscriptEvent } from '../../../src/index.js';
import { concat, wsServer } from './servers.js';

export const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 16 kHz PCM s16le: 32 000 bytes a second. */
export const SECOND = 32_000;

/** One listen socket as the server saw it. */
export interface Session {
  ws: WebSocket;
  /** Audio bytes received. */
  bytes: number;
  /** Bytes covered by the finals sent so far. */
  finalBytes: number;
  /** Text messages received, in order. */
  texts: string[];
}

/**
 * A listen server: counts audio, answers CloseStream with a final for the audio since its last
 * final ("heard N bytes"), then Metadata and a normal close. `final(n)` sends a final for
 * session n's audio so far; `idleClose(n)` closes session n with 1011 NET-0001; `lose(n, 'drop')`
 * drops its TCP connection with no close frame, `lose(n, 'go away')` closes it with 1001.
 * `until(test)` resolves once `test()` holds (checked after every server event).
 */
export async function listenServer() {
  const sessions: Session[] = [];
  const waiters: Array<() => void> = [];
  const changed = () => {
    for (const w of waiters.splice(0)) w();
  };
  const sendFinal = (s: Session) => {
    const from = s.finalBytes;
    s.finalBytes = s.bytes;
    s.ws.send(
      JSON.stringify({
        type: 'Results',
        start: from / SECOND,
        duration: (s.bytes - from) / SECOND,
        is_final: true,
        speech_final: true,
        channel: { alternatives: [{ transcript: `heard ${s.bytes - from} bytes`, confidence: 1 }] },
      }),
    );
  };
  const wire = await wsServer((ws) => {
    const s: Session = { ws, bytes: 0, finalBytes: 0, texts: [] };
    sessions.push(s);
    ws.on('message', (data, binary) => {
      if (binary) s.bytes += (data as Buffer).byteLength;
      else {
        const text = String(data);
        s.texts.push(text);
        if ((JSON.parse(text) as { type: string }).type === 'CloseStream') {
          if (s.bytes > s.finalBytes) sendFinal(s);
          ws.send(JSON.stringify({ type: 'Metadata', request_id: `r${sessions.length}` }));
          ws.close(1000);
        }
      }
      changed();
    });
    ws.on('close', changed);
    changed();
  });
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    url: wire.url,
    sessions,
    until,
    final: (n: number) => sendFinal(sessions[n]!),
    idleClose: (n: number) =>
      sessions[n]!.ws.close(
        1011,
        'NET-0001 Deepgram did not receive audio data or a text message within the timeout window',
      ),
    lose: (n: number, how: 'drop' | 'go away') =>
      how === 'drop' ? sessions[n]!.ws.terminate() : sessions[n]!.ws.close(1001, 'server shutting down'),
  };
}

/**
 * The caller's audio: pushed by the test, nothing sent beyond it; `push(ms, value)` in 100 ms
 * chunks of one byte value, `pushBytes` as given.
 */
export class Feed implements AsyncIterable<Uint8Array> {
  readonly #queue: Array<Uint8Array | null> = [];
  #wake: (() => void) | undefined;
  push(ms: number, value: number): void {
    for (let i = 0; i < ms / 100; i++) this.#queue.push(new Uint8Array(3200).fill(value));
    this.#wake?.();
  }
  pushBytes(bytes: Uint8Array): void {
    this.#queue.push(bytes);
    this.#wake?.();
  }
  end(): void {
    this.#queue.push(null);
    this.#wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.#queue.shift();
      if (next === null) return;
      if (next) yield next;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/** Transcript events as rows of type, text, start and end (ms). */
export const summary = (items: readonly TranscriptEvent[]) =>
  items.map((e) => [e.type, e.text, e.startMs, e.endMs]);

/** A drained STT call: its transcript events and the error it ended with, if any. */
type Drained = Promise<{ items: TranscriptEvent[]; error: unknown }>;

/**
 * Feeds 1 s more (level 2), ends the audio, and checks the call (`result`, the drained stream)
 * ended with no error and the transcript `finals` ({@link summary} rows).
 */
export async function expectAfterOneMoreSecond(
  feed: Feed,
  result: Drained,
  finals: unknown[][],
): Promise<void> {
  feed.push(1000, 2);
  feed.end();
  const { items, error } = await result;
  expect(error).toBeUndefined();
  expect(summary(items)).toEqual(finals);
}

/**
 * After a final over the first second on socket 0 and that socket's close: feeds 1 s more, ends
 * the audio, and checks the call (`result`, the drained stream) ended with no error and two
 * finals on the caller's timeline (0-1000 ms, 1000-2000 ms), the second second heard alone on
 * a second socket.
 */
export async function expectNextSecondOnNewSocket(
  server: Awaited<ReturnType<typeof listenServer>>,
  feed: Feed,
  result: Drained,
): Promise<void> {
  await expectAfterOneMoreSecond(feed, result, [
    ['final', 'heard 32000 bytes', 0, 1000],
    ['final', 'heard 32000 bytes', 1000, 2000],
  ]);
  expect(server.sessions.map((s) => s.bytes)).toEqual([SECOND, SECOND]);
}

/**
 * A working Deepgram recording what it hears (`heard`): CloseStream -> the message
 * `final(seconds heard)`, Metadata (request `b`), a normal close; other text is ignored.
 */
export async function recordingDeepgram(final: (seconds: number) => string) {
  const heard: Buffer[] = [];
  const server = await wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary) {
        heard.push(Buffer.from(data as Buffer));
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      ws.send(final(concat(heard).byteLength / 32_000));
      ws.send(JSON.stringify({ type: 'Metadata', request_id: 'b' }));
      ws.close(1000);
    });
  });
  return { server, heard };
}

/**
 * A working Deepgram recording what it hears: CloseStream -> a final over all of it (one word
 * spanning it), Metadata, close.
 */
export function workingDeepgram() {
  return recordingDeepgram((seconds) =>
    JSON.stringify({
      type: 'Results',
      is_final: true,
      from_finalize: true,
      start: 0,
      duration: seconds,
      channel: {
        alternatives: [{ transcript: 'second', words: [{ word: 'second', start: 0, end: seconds }] }],
      },
    }),
  );
}
