import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  createRouter,
  ProviderError,
  type RoutedStream,
  type Router,
  type RouterConfig,
} from '../../src/index.js';
import { loadSageMakerSdk } from '../../src/providers/sagemaker/sdk-client.js';
import { headersReceived } from '../helpers/headers-received.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { FakeClock } from '../transport/fake-clock.js';
import { answeringEventStream, responseStreamTts, ttsRouteOver } from './wire/sagemaker-response.js';
import { chatChunk, sseFrames } from './wire/servers.js';

/**
 * Kind: an error status whose body stalls. A provider sends its error status and headers at
 * once (503, 429 with Retry-After, 401, 400), a few bytes of its JSON error body, then nothing,
 * with the socket open. The status decides at once: the error body is read for at most the
 * error-body deadline (the smaller of the idle deadline and 1000 ms, counted from the status),
 * then the connection is closed and the ProviderError is built from the status, the headers
 * and what arrived, exactly as for a complete body: 429/5xx fall back (Retry-After kept), 401
 * is an auth error, 400 ends the call without trying another provider. Before, nothing timed
 * that read: the attempt ended at the first-chunk deadline (10 s by default) as a TimeoutError
 * with no status, and with `firstChunkTimeoutMs: false` the call hung until the provider hung up.
 *
 * The servers speak HTTP on their own (node:http, or node:net for a refused WebSocket upgrade).
 * The router's clock is a fake one, moved by the test once the client has the error response's
 * headers (undici's diagnostics channel `undici:request:headers`), so those tests wait no real
 * second. The SageMaker path goes through the AWS SDK's own HTTP handler, whose error-body
 * deadline runs on real time: that test waits for its 1000 ms. A refused WebSocket upgrade is
 * failed at its status line, its body never read.
 */

const ERROR_BODY_MS = 1000;

/** A loopback HTTP server that answers every request with `answer`; records sockets and hits. */
async function server(answer: (res: http.ServerResponse) => void) {
  const sockets: Socket[] = [];
  const closedSockets = new Set<Socket>();
  let hits = 0;
  const s = http.createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => answer(res));
  });
  s.on('connection', (socket) => {
    sockets.push(socket);
    socket.once('close', () => closedSockets.add(socket));
  });
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const wire = {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    sockets,
    /** Resolves when every socket the server accepted so far is closed. */
    allClosed: () => Promise.all(sockets.map((c) => (closedSockets.has(c) ? undefined : once(c, 'close')))),
    close: () => {
      for (const c of sockets) c.destroy();
      s.close();
    },
  };
  servers.push(wire);
  return wire;
}

const servers: { close(): void }[] = [];
const routers: Router[] = [];
afterEach(async () => {
  for (const r of routers.splice(0)) await r.close();
  for (const s of servers.splice(0)) s.close();
});

/** Status line, headers, the start of a JSON error body, then silence (socket left open). */
function stalls(status: number, headers: Record<string, string> = {}) {
  return (res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.write('{"error":{"message":"over');
  };
}

/** The same status with its whole body. */
function complete(status: number, headers: Record<string, string> = {}) {
  return (res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end('{"error":{"message":"overloaded"}}');
  };
}

const answerChat = (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(sseFrames([chatChunk({ content: 'Table booked.' }), chatChunk({}, 'stop'), '[DONE]']));
};

const PCM = Buffer.alloc(4800, 7);
const answerPcm = (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'audio/pcm' });
  res.end(PCM);
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

function chatProvider(url: string) {
  return { kind: 'openai-compatible' as const, baseUrl: `${url}/v1`, chat: { models: { fast: 'm' } } };
}

/** A router on `clock`; `viaFetch`: sending through a supplied fetch (the global one) instead of undici. */
function make(config: RouterConfig, clock?: FakeClock, viaFetch = false): Router {
  const r = createRouter(config, {
    ...(clock ? { clock } : {}),
    ...(viaFetch ? { fetch: (input, init) => globalThis.fetch(input, init) } : {}),
  });
  routers.push(r);
  return r;
}

interface Outcome {
  text: string;
  error: unknown;
  settled: boolean;
}

/** Reads a chat stream to its end in the background; `settled` turns true when it ended. */
function readChat(r: Router): {
  outcome: Outcome;
  done: Promise<Outcome>;
  stream: ReturnType<Router['chat']>;
} {
  const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
  const outcome: Outcome = { text: '', error: undefined, settled: false };
  const done = (async () => {
    try {
      for await (const e of stream) if (e.type === 'text-delta') outcome.text += e.text;
    } catch (error) {
      outcome.error = error;
    }
    outcome.settled = true;
    return outcome;
  })();
  stream.result.catch(() => {});
  return { outcome, done, stream };
}

function routeAB(a: string, b: string, extra: Record<string, unknown> = {}): RouterConfig {
  return {
    providers: { a: chatProvider(a), b: chatProvider(b) },
    routes: { chat: { providers: ['a', 'b'], strategy: 'priority', ...extra } },
  } as RouterConfig;
}

/** What the attempt on `a` recorded, in the fields the router acts on. */
function shape(error: unknown) {
  expect(error).toBeInstanceOf(ProviderError);
  const e = error as ProviderError;
  return {
    name: e.name,
    status: e.status,
    retryable: e.retryable,
    retryAfterMs: e.retryAfterMs,
    isAuthError: e.isAuthError,
  };
}

/** What {@link shape} gives for an attempt ended by each status (the 429 with `retry-after: 7`). */
const RECORDED = {
  400: { name: 'ProviderError', status: 400, retryable: false, retryAfterMs: undefined, isAuthError: false },
  401: { name: 'ProviderError', status: 401, retryable: false, retryAfterMs: undefined, isAuthError: true },
  429: { name: 'ProviderError', status: 429, retryable: true, retryAfterMs: 7000, isAuthError: false },
  503: { name: 'ProviderError', status: 503, retryable: true, retryAfterMs: undefined, isAuthError: false },
} as const;

const FALLBACK_CASES = [
  { status: 503, headers: {}, expected: RECORDED[503] },
  { status: 429, headers: { 'retry-after': '7' }, expected: RECORDED[429] },
  { status: 401, headers: {}, expected: RECORDED[401] },
] as const;

/** Expects the call to have been served by b; returns what the attempt on a recorded ({@link shape}). */
async function servedByB(stream: RoutedStream<unknown>) {
  const result = await stream.result;
  expect(result.provider).toBe('b');
  return shape(result.attempts[0]!.error);
}

/**
 * a answering with `answerA`, b with a chat answer, a router over a then b (route options
 * `extra`) on a fake clock, and a chat read in the background ({@link readChat}); resolves once
 * the client has a's response headers.
 */
async function chatPastHeaders(
  answerA: (res: http.ServerResponse) => void,
  extra: Record<string, unknown> = {},
  viaFetch = false,
) {
  const a = await server(answerA);
  const b = await server(answerChat);
  const clock = new FakeClock();
  const r = make(routeAB(a.url, b.url, extra), clock, viaFetch);
  const headers = headersReceived();
  const read = readChat(r);
  await headers;
  return { a, b, clock, ...read };
}

/**
 * Moves `clock` to 1 ms short of the error-body deadline (expects the call still open and b not
 * asked), then onto it, and waits for the call's end (`done`).
 */
async function crossErrorBodyDeadline(
  clock: FakeClock,
  outcome: { settled: boolean },
  b: { hits: number },
  done: Promise<unknown>,
): Promise<void> {
  clock.advance(ERROR_BODY_MS - 1);
  await turn();
  expect(outcome.settled).toBe(false);
  expect(b.hits).toBe(0);
  clock.advance(1);
  await done;
}

/** Reads a tts stream to its end in the background: its bytes, and `settled` once it ended. */
function readTts(stream: ReturnType<Router['tts']>) {
  const outcome = { bytes: [] as number[], settled: false };
  const done = (async () => {
    for await (const chunk of stream) outcome.bytes.push(...chunk.data);
    outcome.settled = true;
    return outcome;
  })();
  return { outcome, done };
}

describe('an error status whose body stalls is acted on at the error-body deadline', () => {
  for (const c of FALLBACK_CASES) {
    for (const viaFetch of [false, true])
      it(`chat${viaFetch ? ' (through fetch)' : ''}: ${c.status} then a stalled body: b serves at ${ERROR_BODY_MS} ms, a's attempt keeps the status, a's socket closed`, async () => {
        const { a, b, clock, outcome, done, stream } = await chatPastHeaders(
          stalls(c.status, c.headers),
          {},
          viaFetch,
        );
        await crossErrorBodyDeadline(clock, outcome, b, done);
        expect(outcome.error).toBeUndefined();
        expect(outcome.text).toBe('Table booked.');
        expect(await servedByB(stream)).toEqual(c.expected);
        expect((await stream.result).attempts.map((x) => [x.provider, x.outcome])).toEqual([
          ['a', 'failed'],
          ['b', 'success'],
        ]);
        await a.allClosed();
        expect(a.sockets.every((s) => s.destroyed || s.closed)).toBe(true);
      });

    it(`chat: ${c.status} with a stalled body is recorded as with a complete body`, async () => {
      const results: unknown[] = [];
      for (const answer of [complete(c.status, c.headers), stalls(c.status, c.headers)]) {
        const { clock, done, stream } = await chatPastHeaders(answer);
        clock.advance(ERROR_BODY_MS);
        await done;
        const result = await stream.result;
        results.push([result.provider, shape(result.attempts[0]!.error)]);
      }
      expect(results[1]).toEqual(results[0]);
    });
  }

  it('chat: 400 then a stalled body ends the call with that ProviderError; b is never tried', async () => {
    const { a, b, clock, outcome, done } = await chatPastHeaders(stalls(400));
    clock.advance(ERROR_BODY_MS);
    await done;
    expect(shape(outcome.error)).toEqual(RECORDED[400]);
    expect((outcome.error as ProviderError).provider).toBe('a');
    expect(b.hits).toBe(0);
    await a.allClosed();
  });

  it('chat: the first-chunk deadline stands down once the error status arrived (429, firstChunkTimeoutMs 300)', async () => {
    const { a, b, clock, outcome, done, stream } = await chatPastHeaders(
      stalls(429, { 'retry-after': '7' }),
      {
        firstChunkTimeoutMs: 300,
      },
    );
    // Past the first-chunk deadline: not the thing that ends the attempt.
    clock.advance(300);
    await turn();
    expect(outcome.settled).toBe(false);
    expect(b.hits).toBe(0);
    clock.advance(ERROR_BODY_MS - 300);
    await done;
    expect(await servedByB(stream)).toEqual(RECORDED[429]);
    await a.allClosed();
  });

  it('chat: firstChunkTimeoutMs false, idleTimeoutMs 400: a 503 with a stalled body settles at 400 ms', async () => {
    const a = await server(stalls(503));
    const clock = new FakeClock();
    const r = make(
      {
        providers: { a: chatProvider(a.url) },
        routes: { chat: { providers: ['a'], firstChunkTimeoutMs: false, idleTimeoutMs: 400 } },
      },
      clock,
    );
    const headers = headersReceived();
    const { outcome, done, stream } = readChat(r);
    await headers;
    clock.advance(399);
    await turn();
    expect(outcome.settled).toBe(false);
    clock.advance(1);
    await done;
    expect(outcome.error).toBeInstanceOf(AllProvidersFailedError);
    const attempts = await stream.result.then(
      () => [],
      (error: AllProvidersFailedError) => error.attempts,
    );
    expect(attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'failed']]);
    expect(shape(attempts[0]!.error)).toEqual(RECORDED[503]);
    await a.allClosed();
  });

  for (const kind of ['openai-compatible', 'elevenlabs'] as const) {
    it(`tts over HTTP (${kind}): 503 then a stalled body: b speaks at ${ERROR_BODY_MS} ms`, async () => {
      const a = await server(stalls(503));
      const b = await server(answerPcm);
      const clock = new FakeClock();
      const aProvider =
        kind === 'elevenlabs'
          ? {
              kind,
              baseUrl: a.url,
              apiKey: ['test', 'only', 'value'].join('-'),
              tts: { voices: { v: 'el-voice' } },
            }
          : { kind, baseUrl: `${a.url}/v1`, tts: { voices: { v: 'alloy' }, responseFormat: 'pcm' } };
      const r = make(
        {
          providers: {
            a: aProvider,
            b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { v: 'alloy' } } },
          },
          routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
        } as RouterConfig,
        clock,
      );
      const headers = headersReceived();
      const stream = r.tts({
        text: 'Hi.',
        voice: 'v',
        format: { encoding: 'pcm_s16le', sampleRate: 24_000 },
      });
      const { outcome, done } = readTts(stream);
      await headers;
      await crossErrorBodyDeadline(clock, outcome, b, done);
      expect(outcome.bytes).toEqual([...PCM]);
      expect(await servedByB(stream)).toEqual(RECORDED[503]);
      await a.allClosed();
    });
  }

  it('SageMaker response stream (AWS SDK): 503 then a stalled body: b speaks, a keeps its status, its socket closed', async () => {
    const a = await server((res) => {
      res.writeHead(503, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'ServiceUnavailable:http://internal.amazon.com/coral/com.amazonaws.sagemaker/',
        'x-amzn-requestid': 'req-1',
      });
      res.write('{"message":"over');
    });
    const b = await answeringEventStream(payloadPart(PCM));
    servers.push(b);
    // The first-chunk deadline (600 ms) stands down at the status: the error-body deadline
    // (real time, 1 s) ends a's attempt, with its status. The AWS SDK is loaded first, so that
    // its load does not count against the first-chunk deadline.
    await loadSageMakerSdk();
    const r = make(
      ttsRouteOver(
        { a: responseStreamTts(a.url), b: responseStreamTts(b.url) },
        { firstChunkTimeoutMs: 600 },
      ),
    );
    const stream = r.tts({ text: 'Hello there.', voice: 'agent' });
    expect((await readTts(stream).done).bytes).toEqual([...PCM]);
    expect(await servedByB(stream)).toEqual(RECORDED[503]);
    await a.allClosed();
  });

  it('WebSocket upgrade refused with 401 and a stalled body (Cartesia TTS): an auth error, b speaks, socket closed', async () => {
    const sockets: Socket[] = [];
    const raw = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
      socket.once('data', () =>
        socket.write(
          'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"error_code":',
        ),
      );
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    servers.push({
      close: () => {
        for (const c of sockets) c.destroy();
        raw.close();
      },
    });
    const b = await server(answerPcm);
    const r = make({
      providers: {
        a: {
          kind: 'cartesia',
          baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
          apiKey: ['test', 'only', 'value'].join('-'),
          tts: { voices: { v: 'voice-id' }, transport: 'websocket' },
        },
        b: { kind: 'openai-compatible', baseUrl: `${b.url}/v1`, tts: { voices: { v: 'alloy' } } },
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: 30_000 } },
    } as RouterConfig);
    const stream = r.tts({ text: 'Hi.', voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24_000 } });
    expect((await readTts(stream).done).bytes).toEqual([...PCM]);
    expect(await servedByB(stream)).toEqual(RECORDED[401]);
    expect(sockets).toHaveLength(1);
    if (!sockets[0]!.destroyed) await once(sockets[0]!, 'close');
  });
});
