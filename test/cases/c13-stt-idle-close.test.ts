/**
 * C13: Deepgram closes a listen socket that received nothing within its inactivity window
 * (1011 NET-0001). If it closes anyway (keep-alive off here: the case's "not honoured"), the
 * adapter raises a retryable ProviderError with `idleTimeout`, and stt() reconnects to the same
 * provider for the caller's next audio, replaying the audio since the last final: the call
 * goes on and no word is lost. The server speaks the listen wire on its own (loopback `ws`);
 * it closes for inactivity on the test's command (the "10 s without a frame"), so no clock runs.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { TranscriptEvent } from '../../src/index.js';
import { drain, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 16 kHz PCM s16le: 32 000 bytes a second. */
const SECOND = 32_000;

/** One listen socket as the server saw it. */
interface Session {
  ws: WebSocket;
  /** Audio bytes received. */
  bytes: number;
  /** Bytes covered by the finals sent so far. */
  finalBytes: number;
  texts: string[];
}

/**
 * A listen server: counts audio, answers CloseStream with a final for the audio since its last
 * final ("heard N bytes"), then Metadata and a normal close. `final(n)` sends a final for the
 * session's audio so far; `idleClose(n)` closes session n with 1011 NET-0001.
 */
async function listenServer() {
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
  /** Resolves once `test()` holds (checked after every server event). */
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
  };
}

/** The caller's audio: pushed by the test, one 100 ms chunk at a time. */
class Feed implements AsyncIterable<Uint8Array> {
  readonly #queue: Array<Uint8Array | null> = [];
  #wake: (() => void) | undefined;
  push(ms: number, value: number): void {
    for (let i = 0; i < ms / 100; i++) this.#queue.push(new Uint8Array(3200).fill(value));
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

function setup(url: string) {
  return router({
    providers: {
      dg: {
        kind: 'deepgram',
        baseUrl: url,
        apiKey: 'dg-test-key-0123456789',
        // Keep-alive off: the server's inactivity close is what this case is about.
        stt: { model: 'nova-3', keepAliveIntervalMs: 0 },
      },
    },
    routes: { stt: { providers: ['dg'], strategy: 'priority', midStream: 'replay' } },
  });
}

const summary = (items: TranscriptEvent[]) => items.map((e) => [e.type, e.text, e.startMs, e.endMs]);

describe('C13: the STT socket closed for inactivity (1011 NET-0001)', () => {
  it('1 s of audio, an idle close during the silence, 1 s more: a new socket hears both seconds and the call goes on', async () => {
    const server = await listenServer();
    const feed = new Feed();
    const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
    const result = drain(stream);
    feed.push(1000, 1);
    await server.until(() => server.sessions[0]?.bytes === SECOND);
    server.idleClose(0);
    await server.until(() => server.sessions[0]!.ws.readyState === 3);
    // No socket opens before the caller's next audio.
    expect(server.sessions).toHaveLength(1);
    feed.push(1000, 2);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    // The second socket heard the first second again (no final had covered it), then the last.
    expect(summary(items)).toEqual([['final', 'heard 64000 bytes', 0, 2000]]);
    expect(server.sessions.map((s) => s.bytes)).toEqual([SECOND, 2 * SECOND]);
    expect(server.sessions[1]!.texts).toEqual(['{"type":"Finalize"}', '{"type":"CloseStream"}']);
    const done = await stream.result;
    expect(done.attempts.map((x) => [x.provider, x.outcome])).toEqual([['dg', 'success']]);
  });

  it('after a final, only the audio since it is replayed, and the new final is on the caller timeline', async () => {
    const server = await listenServer();
    const feed = new Feed();
    const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
    const result = drain(stream);
    feed.push(1000, 1);
    await server.until(() => server.sessions[0]?.bytes === SECOND);
    server.final(0);
    server.idleClose(0);
    await server.until(() => server.sessions[0]!.ws.readyState === 3);
    feed.push(1000, 2);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    expect(summary(items)).toEqual([
      ['final', 'heard 32000 bytes', 0, 1000],
      ['final', 'heard 32000 bytes', 1000, 2000],
    ]);
    expect(server.sessions.map((s) => s.bytes)).toEqual([SECOND, SECOND]);
  });

  it('an idle close with nothing waiting for a final, then the end of the audio: the call ends, no new socket', async () => {
    const server = await listenServer();
    const feed = new Feed();
    const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
    const result = drain(stream);
    feed.push(1000, 1);
    await server.until(() => server.sessions[0]?.bytes === SECOND);
    server.final(0);
    server.idleClose(0);
    await server.until(() => server.sessions[0]!.ws.readyState === 3);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    expect(summary(items)).toEqual([['final', 'heard 32000 bytes', 0, 1000]]);
    expect(server.sessions).toHaveLength(1);
  });

  it('a server that closes every socket for inactivity: after 3 reconnects the typed retryable close is thrown', async () => {
    const server = await listenServer();
    const feed = new Feed();
    const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
    const result = drain(stream);
    for (let n = 0; n < 4; n++) {
      feed.push(100, n + 1);
      await server.until(() => server.sessions[n]?.bytes === (n + 1) * 3200);
      server.idleClose(n);
      await server.until(() => server.sessions[n]!.ws.readyState === 3);
    }
    feed.push(100, 9);
    const { items, error } = await result;
    expect(items).toEqual([]);
    expect(server.sessions).toHaveLength(4);
    const cause = (error as { attempts?: Array<{ error?: unknown }> }).attempts?.[0]?.error as {
      name: string;
      status: number;
      providerCode: string;
      retryable: boolean;
      idleTimeout: boolean;
    };
    expect((error as Error).name).toBe('AllProvidersFailedError');
    expect([cause.name, cause.status, cause.providerCode, cause.retryable, cause.idleTimeout]).toEqual([
      'ProviderError',
      1011,
      'NET-0001',
      true,
      true,
    ]);
    feed.end();
  });
});
