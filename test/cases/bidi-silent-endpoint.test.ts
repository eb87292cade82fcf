/**
 * Kind: a SageMaker bidirectional STT endpoint that goes silent. With the route's default
 * deadlines (`firstChunkTimeoutMs: 'auto'`, which is none for a streaming-input STT provider)
 * the call hung forever when the endpoint (a) answered 200, read all the audio and sent nothing;
 * (b) never read the request stream (HTTP/2 flow control full: our writes never completed, so
 * the input never ended); (c) never sent its response headers; (d) accepted TCP and never spoke
 * HTTP/2. Each now settles and falls back to the next provider: (d) is the connect deadline
 * (`connectTimeoutMs`, phase `connect`); a write held back by the server's flow control for
 * `idleTimeoutMs` with no output, and, once all audio was sent, the wait for the headers or the
 * first output byte, are the provider's silence (`idleTimeoutMs`, phase `idle`). A caller whose
 * own audio pauses is not the provider's silence (control).
 *
 * The endpoints speak the wire themselves (node:http2, node:net, event-stream frames written
 * here), not voxroute's mocks. The router's clock is a fake one, moved by the test once the
 * deadline it means is armed: no sleeps.
 */
import { once } from 'node:events';
import { createServer, type Http2Server, type ServerHttp2Stream, type Settings } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RouterConfig, TimeoutError } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { FakeClock } from '../transport/fake-clock.js';
import { EXAMPLE_CREDENTIALS } from './wire/sagemaker-response.js';
import { batchStt, drain, pcmSignal, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 1 s of 16 kHz PCM s16le, sent as ten 100 ms chunks. */
const SPEECH = pcmSignal(16_000, 16_000, 3);
const CHUNKS = Array.from({ length: 10 }, (_, i) => SPEECH.subarray(i * 3200, (i + 1) * 3200));
/** Deadlines no other timer of the call uses, so that the test can tell them apart. */
const IDLE = 1_234;
const CONNECT = 1_777;
const credentials = EXAMPLE_CREDENTIALS;

/** A FakeClock that tells the test when a timer of a given length is pending. */
class WatchedClock extends FakeClock {
  readonly #lengths = new Map<unknown, number>();
  #waiters: Array<{ ms: number; resolve: () => void }> = [];

  override setTimeout(fn: () => void, ms: number): unknown {
    const id = super.setTimeout(() => {
      this.#lengths.delete(id);
      fn();
    }, ms);
    this.#lengths.set(id, ms);
    for (const w of this.#waiters.filter((x) => x.ms === ms)) w.resolve();
    this.#waiters = this.#waiters.filter((x) => x.ms !== ms);
    return id;
  }

  override clearTimeout(handle: unknown): void {
    this.#lengths.delete(handle);
    super.clearTimeout(handle);
  }

  /** Resolves once a timer of `ms` is pending (at once if one is). */
  armed(ms: number): Promise<void> {
    if ([...this.#lengths.values()].includes(ms)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ ms, resolve }));
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An h2c endpoint; `answer` gets each invocation's stream (nothing sent yet). */
async function h2Endpoint(answer: (stream: ServerHttp2Stream) => void, settings?: Settings): Promise<string> {
  const server: Http2Server = createServer(settings ? { settings } : {});
  const sessions = new Set<{ destroy(): void }>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('error', () => {});
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    for (const s of sessions) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function start(url: string, bUrl: string, clock: FakeClock) {
  const r = router(
    {
      providers: {
        a: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'asr',
          endpointUrl: url,
          credentials,
          stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'bidirectional' },
        },
        b: { kind: 'openai-compatible', baseUrl: bUrl, stt: { model: 'whisper' } },
      },
      routes: {
        stt: { providers: ['a', 'b'], strategy: 'priority', idleTimeoutMs: IDLE, connectTimeoutMs: CONNECT },
      },
    } as RouterConfig,
    { clock },
  );
  const fallbacks: unknown[] = [];
  r.on('fallback', (e) => fallbacks.push(e.error));
  return { r, fallbacks };
}

async function* speech(): AsyncGenerator<Uint8Array> {
  yield* CHUNKS;
}

/** Runs the call to its end and checks the fallback: A's TimeoutError of `phase`, B's exact transcript of all the audio. */
async function expectFallback(
  call: ReturnType<ReturnType<typeof start>['r']['stt']>,
  fallbacks: unknown[],
  b: { uploads: Buffer[] },
  phase: 'connect' | 'idle',
  ms: number,
) {
  const { items, error } = await drain(call);
  expect(error).toBeUndefined();
  expect(items).toMatchObject([{ type: 'final', text: 'from b' }]);
  expect(fallbacks).toHaveLength(1);
  const timeout = fallbacks[0] as TimeoutError;
  expect(TimeoutError.isInstance(timeout)).toBe(true);
  expect(timeout.phase).toBe(phase);
  expect(timeout.timeoutMs).toBe(ms);
  expect(timeout.retryable).toBe(true);
  expect(timeout.provider).toBe('a');
  expect(timeout.partialOutput).toBe(false);
  expect(b.uploads).toHaveLength(1);
  expect(b.uploads[0]!.equals(SPEECH)).toBe(true);
  const result = await call.result;
  expect(result.provider).toBe('b');
  expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
    ['a', 'failed'],
    ['b', 'success'],
  ]);
}

/**
 * Runs one silent-endpoint case: A at `url`, the batch B behind it, a call of the speech; once
 * `ready` (the server's side of the case reached) and the deadline of `ms` is armed, moves the
 * clock past it and expects the fallback with phase `phase`.
 */
async function silentCase(
  url: string,
  phase: 'connect' | 'idle',
  ms: number,
  ready?: Promise<void>,
): Promise<void> {
  const b = await batchStt('from b');
  const clock = new WatchedClock();
  const { r, fallbacks } = start(url, b.url, clock);
  const call = r.stt({ audio: speech(), format: FORMAT });
  const done = expectFallback(call, fallbacks, b, phase, ms);
  await ready;
  await clock.armed(ms);
  clock.advance(ms);
  await done;
}

describe('a silent bidirectional endpoint ends in a fallback, never a hang', () => {
  it('(a) 200, all audio read, then nothing: idle deadline from the end of the input (phase idle), B transcribes', async () => {
    const ended = deferred<void>();
    const url = await h2Endpoint((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.resume();
      stream.on('end', () => ended.resolve());
    });
    // Every write was flushed before the server saw the end: the IDLE timer now is the wait
    // for the first output byte.
    await silentCase(url, 'idle', IDLE, ended.promise);
  });

  it('(b) 200, the request stream never read (flow control full): a write held back for idleTimeoutMs is a stall (phase idle), B transcribes', async () => {
    // A stream window of 0: no audio byte can be sent, so the first write waits for the server.
    const url = await h2Endpoint(
      (stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
        stream.pause();
      },
      { initialWindowSize: 0 },
    );
    await silentCase(url, 'idle', IDLE);
  });

  it('(c) no response headers, all audio read: the headers are owed from the end of the input (phase idle), B transcribes', async () => {
    const ended = deferred<void>();
    const url = await h2Endpoint((stream) => {
      stream.resume();
      stream.on('end', () => ended.resolve());
    });
    await silentCase(url, 'idle', IDLE, ended.promise);
  });

  it('(c) no response headers and the request stream never read: a write stall (phase idle), B transcribes', async () => {
    const url = await h2Endpoint(
      (stream) => {
        stream.pause();
      },
      { initialWindowSize: 0 },
    );
    await silentCase(url, 'idle', IDLE);
  });

  it('(d) TCP accepted, no HTTP/2 spoken (no SETTINGS): the connect deadline (phase connect), B transcribes', async () => {
    const held: Socket[] = [];
    const accepted = deferred<void>();
    const tcp: Server = createTcpServer((socket) => {
      held.push(socket);
      socket.on('error', () => {});
      socket.resume();
      accepted.resolve();
    });
    tcp.listen(0, '127.0.0.1');
    await once(tcp, 'listening');
    closers.push(async () => {
      for (const s of held) s.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    });
    await silentCase(
      `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
      'connect',
      CONNECT,
      accepted.promise,
    );
  });

  it("control: the caller's audio pausing for many idle deadlines is not the provider's silence: A transcribes", async () => {
    const firstChunk = deferred<void>();
    const url = await h2Endpoint((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.once('data', () => firstChunk.resolve());
      stream.resume();
      stream.on('end', () => stream.end(payloadPart(Buffer.from('{"type":"final","text":"from a"}\n'))));
    });
    const b = await batchStt('from b');
    const clock = new WatchedClock();
    const { r, fallbacks } = start(url, b.url, clock);
    const resume = deferred<void>();
    async function* pausing(): AsyncGenerator<Uint8Array> {
      yield CHUNKS[0]!;
      await resume.promise;
      yield* CHUNKS.slice(1);
    }
    const call = r.stt({ audio: pausing(), format: FORMAT });
    const drained = drain(call);
    await firstChunk.promise;
    // The first write was flushed (the server has it): nothing of A's is pending while the
    // caller is silent.
    clock.advance(IDLE * 10);
    resume.resolve();
    const { items, error } = await drained;
    expect(error).toBeUndefined();
    expect(items).toMatchObject([{ type: 'final', text: 'from a' }]);
    expect(fallbacks).toEqual([]);
    expect(b.uploads).toHaveLength(0);
    expect((await call.result).provider).toBe('a');
  });
});
