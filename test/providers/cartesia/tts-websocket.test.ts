import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError, TimeoutError } from '../../../src/errors/index.js';
import type { Clock } from '../../../src/internal/clock.js';
import { isRouterStall } from '../../../src/internal/stall.js';
import type { CartesiaAudio } from '../../../src/providers/cartesia/index.js';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { CartesiaMockOptions } from '../../../src/testing/cartesia/index.js';
import { mockCartesiaAudio } from '../../../src/testing/cartesia/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { fieldsOf } from '../../helpers/index.js';
import { BlockedClock } from '../../transport/blocked-clock.js';
import { FakeClock } from '../../transport/fake-clock.js';
import {
  API_KEY,
  collect,
  collectUntilError,
  concat,
  expectNoKey,
  type Loopback,
  pushable,
  startLoopback,
  textPieces,
  until,
} from './helpers.js';

let loop: Loopback | undefined;
afterEach(async () => {
  await loop?.close();
  loop = undefined;
});

const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
const text = 'Your table is booked.';

async function start(options: CartesiaMockOptions = {}, clock?: Clock, extra: Record<string, unknown> = {}) {
  loop = await startLoopback(options);
  const adapter = loop.adapter({
    tts: { model: 'sonic-3', transport: 'websocket', ...extra },
    ...(clock ? { clock } : {}),
  });
  return { loop, adapter, tts: adapter.tts! };
}

const audioOf = (chunks: CartesiaAudio[]) => concat(chunks.map((c) => c.data));
const messages = (l: Loopback, socket = 0) =>
  l.mock.sockets[socket]!.messages as Array<Record<string, unknown>>;

describe('Cartesia TTS over /tts/websocket (loopback, undici WebSocket)', () => {
  it('a string is one generation request (continue: false); audio exact; word timings in ms on later chunks', async () => {
    const { loop, tts } = await start({ script: { chunkBytes: 4800 } }, undefined, { maxBufferDelayMs: 200 });
    const chunks = await collect(
      tts.synthesize({ text, voice: 'voice-1', format, language: 'en' }, loop.attempt()),
    );
    expect(audioOf(chunks)).toEqual(mockCartesiaAudio(text, format));
    for (const chunk of chunks) expect(chunk.format).toEqual(format);
    expect(chunks.flatMap((c) => c.words ?? [])).toEqual([
      { word: 'Your', startMs: 0, endMs: 240 },
      { word: 'table', startMs: 300, endMs: 600 },
      { word: 'is', startMs: 660, endMs: 780 },
    ]);
    const [request] = messages(loop);
    expect(messages(loop)).toHaveLength(1);
    expect(request).toEqual({
      model_id: 'sonic-3',
      transcript: text,
      voice: { mode: 'id', id: 'voice-1' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
      language: 'en',
      add_timestamps: true,
      context_id: expect.stringMatching(/^voxroute-\d+-[a-z0-9]+$/),
      continue: false,
      max_buffer_delay_ms: 200,
    });
    expect(loop.mock.sockets[0]!.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'x-api-key': API_KEY,
      'cartesia-version': '2025-11-04',
    });
  });

  it.each([
    { encoding: 'mulaw', sampleRate: 8000 },
    { encoding: 'alaw', sampleRate: 16000 },
    { encoding: 'pcm_f32le', sampleRate: 44100 },
    { encoding: 'pcm_s16le', sampleRate: 48000 },
  ] as AudioFormat[])('$encoding at $sampleRate Hz is asked natively and arrives exactly', async (want) => {
    const { loop, tts } = await start();
    const chunks = await collect(
      tts.synthesize({ text: 'Hello.', voice: 'v', format: want }, loop.attempt()),
    );
    expect(audioOf(chunks)).toEqual(mockCartesiaAudio('Hello.', want));
    expect(messages(loop)[0]!.output_format).toEqual({
      container: 'raw',
      encoding: { pcm_s16le: 'pcm_s16le', pcm_f32le: 'pcm_f32le', mulaw: 'pcm_mulaw', alaw: 'pcm_alaw' }[
        want.encoding
      ],
      sample_rate: want.sampleRate,
    });
  });

  it('streamed text: each piece goes out as it arrives (continue: true), audio starts before the text ends', async () => {
    const { loop, tts } = await start({ script: { chunkBytes: 2400 } });
    const source = pushable<string>();
    const iterator = tts
      .synthesize({ text: source, voice: 'v', format }, loop.attempt())
      [Symbol.asyncIterator]();
    source.push('Hello ');
    const first = await iterator.next();
    // The first audio came while the text was still open: only 'Hello ' had been sent.
    expect(messages(loop).map((m) => [m.transcript, m.continue])).toEqual([['Hello ', true]]);
    expect(first.value!.data).toEqual(mockCartesiaAudio('Hello world.', format).subarray(0, 2400));
    source.push('world.');
    source.end();
    const rest: CartesiaAudio[] = [];
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) rest.push(step.value);
    expect(audioOf([first.value!, ...rest])).toEqual(mockCartesiaAudio('Hello world.', format));
    const sent = messages(loop);
    // 'world.' ends a clause: a flush (a separate message) follows it, then the end of input.
    expect(sent.map((m) => [m.transcript, m.continue, m.flush])).toEqual([
      ['Hello ', true, undefined],
      ['world.', true, undefined],
      ['', true, true],
      ['', false, undefined],
    ]);
    expect(new Set(sent.map((m) => m.context_id)).size).toBe(1);
    for (const m of sent)
      expect(m.output_format).toEqual({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 });
  });

  it('keeps one warm socket: a second call opens a new context on the same connection', async () => {
    const { loop, tts } = await start();
    await collect(tts.synthesize({ text: 'First.', voice: 'v', format }, loop.attempt()));
    const second = await collect(
      tts.synthesize({ text: textPieces(['Second ', 'one.']), voice: 'v', format }, loop.attempt()),
    );
    expect(audioOf(second)).toEqual(mockCartesiaAudio('Second one.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(1);
    const ids = messages(loop).map((m) => m.context_id);
    // 'First.'; then 'Second ', 'one.', its flush, the end of input.
    expect(ids).toHaveLength(5);
    expect(ids[0]).not.toBe(ids[1]);
    expect(new Set(ids.slice(1)).size).toBe(1);
  });

  it('a socket that the server closed while idle is replaced before use', async () => {
    const { loop, tts } = await start();
    await collect(tts.synthesize({ text: 'First.', voice: 'v', format }, loop.attempt()));
    loop.mock.closeSockets(1001, 'idle');
    expect(await loop.mock.sockets[0]!.ended).toBe('completed');
    const second = await collect(tts.synthesize({ text: 'Second.', voice: 'v', format }, loop.attempt()));
    expect(audioOf(second)).toEqual(mockCartesiaAudio('Second.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(2);
    expect(messages(loop, 1)).toHaveLength(1);
  });

  it('an idle warm socket is closed after keepWarmMs; with keepWarmMs 0 right after the call', async () => {
    const clock = new FakeClock();
    const { loop, tts } = await start({}, clock, { keepWarmMs: 500 });
    await collect(tts.synthesize({ text: 'Hi.', voice: 'v', format }, loop.attempt()));
    expect(loop.mock.sockets[0]!.outcome).toBe('pending');
    clock.advance(499);
    expect(loop.mock.sockets[0]!.outcome).toBe('pending');
    clock.advance(1);
    expect(await loop.mock.sockets[0]!.ended).toBe('completed');
    expect(loop.mock.sockets[0]!.closeCode).toBe(1000);

    const cold = loop.adapter({ tts: { model: 'sonic-3', transport: 'websocket', keepWarmMs: 0 } });
    await collect(cold.tts!.synthesize({ text: 'Hi.', voice: 'v', format }, loop.attempt()));
    expect(await loop.mock.sockets[1]!.ended).toBe('completed');
  });

  it('C15: 3 chunks then silence -> TimeoutError idle with partialOutput after idleMs; the next call starts on a fresh socket', async () => {
    const clock = new FakeClock();
    const { loop, tts } = await start(
      { script: { 'tts-websocket': [{ stallAfterChunks: 3, chunkBytes: 960 }] } },
      clock,
    );
    const iterator = tts
      .synthesize({ text, voice: 'v', format }, loop.attempt(undefined, { idleMs: 1000 }))
      [Symbol.asyncIterator]();
    const got: CartesiaAudio[] = [];
    for (let i = 0; i < 3; i++) got.push((await iterator.next()).value!);
    expect(audioOf(got)).toEqual(mockCartesiaAudio(text, format).subarray(0, 2880));
    let settled = false;
    const pending = iterator.next().then(
      () => {
        settled = true;
        throw new Error('expected the stream to fail');
      },
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    const error = await pending;
    expect(fieldsOf(error, TimeoutError, 'phase', 'timeoutMs', 'retryable', 'partialOutput')).toEqual({
      phase: 'idle',
      timeoutMs: 1000,
      retryable: true,
      partialOutput: true,
    });
    // The stalled context was cancelled and its socket closed.
    const stalled = loop.mock.sockets[0]!;
    expect(await stalled.ended).toBe('aborted');
    expect(stalled.closeCode).toBe(1000);
    expect(stalled.messages.at(-1)).toEqual({ context_id: messages(loop)[0]!.context_id, cancel: true });
    // The next call is not blocked behind it.
    const next = await collect(tts.synthesize({ text: 'Next one.', voice: 'v', format }, loop.attempt()));
    expect(audioOf(next)).toEqual(mockCartesiaAudio('Next one.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(2);
  });

  it('C17: accepted but no audio -> with deadlines.firstByteMs, TimeoutError first-chunk and the socket closed', async () => {
    const clock = new FakeClock();
    const { loop, tts } = await start({ script: { 'tts-websocket': { stallAfterChunks: 0 } } }, clock);
    const pending = collectUntilError(
      tts.synthesize({ text, voice: 'v', format }, loop.attempt(undefined, { firstByteMs: 800 })),
    );
    await until(() => loop.mock.sockets[0]?.messages.length === 1, 'the generation request arrived');
    clock.advance(800);
    const { items, error } = await pending;
    expect(items).toEqual([]);
    expect(fieldsOf(error, TimeoutError, 'phase', 'partialOutput')).toEqual({
      phase: 'first-chunk',
      partialOutput: false,
    });
    expect(await loop.mock.sockets[0]!.ended).toBe('aborted');
    expect(loop.mock.sockets[0]!.messages.at(-1)).toMatchObject({ cancel: true });
  });

  it("C17 while the event loop is blocked: the first-chunk deadline that passes late is the router's stall, not charged to Cartesia", async () => {
    const clock = new BlockedClock();
    const { loop, tts } = await start({ script: { 'tts-websocket': { stallAfterChunks: 0 } } }, clock);
    const pending = collectUntilError(
      tts.synthesize({ text, voice: 'v', format }, loop.attempt(undefined, { firstByteMs: 800 })),
    );
    await until(() => loop.mock.sockets[0]?.messages.length === 1, 'the generation request arrived');
    // A synchronous task holds the event loop for 1 s: the 800 ms timer fires 200 ms late.
    clock.block(1000);
    clock.advance(0);
    const { items, error } = await pending;
    expect(items).toEqual([]);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect([(error as TimeoutError).phase, isRouterStall(error)]).toEqual(['first-chunk', true]);
  });

  it('C17 on time: the same deadline passing with the event loop free is charged to Cartesia (not a router stall)', async () => {
    const clock = new BlockedClock();
    const { loop, tts } = await start({ script: { 'tts-websocket': { stallAfterChunks: 0 } } }, clock);
    const pending = collectUntilError(
      tts.synthesize({ text, voice: 'v', format }, loop.attempt(undefined, { firstByteMs: 800 })),
    );
    await until(() => loop.mock.sockets[0]?.messages.length === 1, 'the generation request arrived');
    clock.advance(800);
    const { error } = await pending;
    expect([(error as TimeoutError).phase, isRouterStall(error)]).toEqual(['first-chunk', false]);
  });

  it('C15: late audio of an earlier context on the warm socket is discarded, never mixed into the next call', async () => {
    const { loop, tts } = await start({ script: { lateChunks: 2 } });
    const first = await collect(tts.synthesize({ text: 'Hi there.', voice: 'v', format }, loop.attempt()));
    const second = await collect(tts.synthesize({ text: 'Bye now.', voice: 'v', format }, loop.attempt()));
    expect(audioOf(first)).toEqual(mockCartesiaAudio('Hi there.', format));
    expect(audioOf(second)).toEqual(mockCartesiaAudio('Bye now.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(1);
  });

  it('C18: the socket opens then closes 1008 "invalid api key" -> a non-retryable auth ProviderError, fast, no key', async () => {
    const { loop, tts } = await start({
      script: { 'tts-websocket': { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' } },
    });
    const started = performance.now();
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: textPieces(['Hi ', 'there.']), voice: 'v', format }, loop.attempt()),
    );
    const elapsed = performance.now() - started;
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect({
      status: e.status,
      retryable: e.retryable,
      auth: e.isAuthError,
      partialOutput: e.partialOutput,
    }).toEqual({
      status: 1008,
      retryable: false,
      auth: true,
      partialOutput: false,
    });
    expect(e.message).toContain('invalid api key');
    expect(elapsed).toBeLessThan(1000);
    expectNoKey(error);
  });

  it('an upgrade refused with 401 is a non-retryable ProviderError without the key (headers or query)', async () => {
    loop = await startLoopback();
    for (const authInQuery of [false, true]) {
      const adapter = createCartesiaAdapter({
        name: 'cartesia',
        baseUrl: loop.server.url,
        apiKey: `${API_KEY}x`,
        authInQuery,
        tts: { model: 'sonic-3', transport: 'websocket' },
      });
      const { error } = await collectUntilError(
        adapter.tts!.synthesize({ text: 'Hi.', voice: 'v', format }, loop.attempt()),
      );
      expect(ProviderError.isInstance(error)).toBe(true);
      expect({
        status: (error as ProviderError).status,
        retryable: (error as ProviderError).retryable,
      }).toEqual({
        status: 401,
        retryable: false,
      });
      expect((error as Error).message.includes(`${API_KEY}x`)).toBe(false);
      expectNoKey(error);
      await adapter.close();
    }
    const [headers, query] = loop.mock.sockets;
    expect(headers!.headers['x-api-key']).toBe(`${API_KEY}x`);
    expect(new URL(query!.url).searchParams.get('api_key')).toBe(`${API_KEY}x`);
  });

  it('abort mid-stream: AbortError, the context is cancelled and the socket closed at once', async () => {
    const { loop, tts } = await start({ script: { stallAfterChunks: 1 } });
    const controller = new AbortController();
    const iterator = tts
      .synthesize({ text, voice: 'v', format }, loop.attempt(controller.signal))
      [Symbol.asyncIterator]();
    await iterator.next();
    const pending = collectUntilError({ [Symbol.asyncIterator]: () => iterator });
    controller.abort();
    const { error } = await pending;
    expect(AbortError.isInstance(error)).toBe(true);
    const socket = loop.mock.sockets[0]!;
    expect(await socket.ended).toBe('aborted');
    expect(socket.closeCode).toBe(1000);
    expect(socket.messages.at(-1)).toEqual({ context_id: messages(loop)[0]!.context_id, cancel: true });
  });

  it('breaking out of the loop (barge-in) cancels the context and closes the socket', async () => {
    const { loop, tts } = await start({ script: { chunkBytes: 960 } });
    for await (const _chunk of tts.synthesize({ text, voice: 'v', format }, loop.attempt())) break;
    const socket = loop.mock.sockets[0]!;
    await socket.ended;
    expect(socket.closeCode).toBe(1000);
    expect(socket.messages.at(-1)).toMatchObject({ cancel: true });
  });

  it('abort while the streamed text is still open stops reading the text', async () => {
    const { loop, tts } = await start();
    const source = pushable<string>();
    const controller = new AbortController();
    const iterator = tts
      .synthesize({ text: source, voice: 'v', format }, loop.attempt(controller.signal))
      [Symbol.asyncIterator]();
    source.push('Hello ');
    await iterator.next();
    controller.abort();
    const { error } = await collectUntilError({ [Symbol.asyncIterator]: () => iterator });
    expect(AbortError.isInstance(error)).toBe(true);
    await until(() => source.returned, 'the text source is closed');
    expect(await loop.mock.sockets[0]!.ended).toBe('aborted');
  });

  it('an error message after audio is a retryable ProviderError with partialOutput; the socket stays warm', async () => {
    const { loop, tts } = await start({
      script: { 'tts-websocket': { errorEventAfterChunks: 2, chunkBytes: 960 } },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text, voice: 'v', format }, loop.attempt()),
    );
    expect(audioOf(items)).toEqual(mockCartesiaAudio(text, format).subarray(0, 1920));
    const e = error as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({ code: e.providerCode, retryable: e.retryable, partialOutput: e.partialOutput }).toEqual({
      code: 'internal_error',
      retryable: true,
      partialOutput: true,
    });
    const next = await collect(tts.synthesize({ text: 'Again.', voice: 'v', format }, loop.attempt()));
    expect(audioOf(next)).toEqual(mockCartesiaAudio('Again.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(1);
  });

  it.each([
    ['a close 1011 after audio', { closeAfterChunks: 1, closeCode: 1011, closeReason: 'overloaded' }, 1011],
    ['a dropped connection (1006) after audio', { resetAfterChunks: 1 }, 1006],
  ] as const)(
    '%s is a retryable ProviderError with the close code and partialOutput',
    async (_name, script, code) => {
      const { loop, tts } = await start({ script: { 'tts-websocket': { ...script, chunkBytes: 960 } } });
      const { items, error } = await collectUntilError(
        tts.synthesize({ text, voice: 'v', format }, loop.attempt()),
      );
      expect(items).toHaveLength(1);
      expect(ProviderError.isInstance(error)).toBe(true);
      const e = error as ProviderError;
      expect({ status: e.status, retryable: e.retryable, partialOutput: e.partialOutput }).toEqual({
        status: code,
        retryable: true,
        partialOutput: true,
      });
      expectNoKey(error);
    },
  );

  it('a frame that is not JSON is a ProtocolError with partialOutput, and that socket is closed', async () => {
    const { loop, tts } = await start({
      script: { 'tts-websocket': { malformedAfterChunks: 1, chunkBytes: 960 } },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text, voice: 'v', format }, loop.attempt()),
    );
    expect(items).toHaveLength(1);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe('Cartesia sent a frame that is not JSON (29 characters)');
    expect((error as ProtocolError).partialOutput).toBe(true);
    await loop.mock.sockets[0]!.ended;
    expect(loop.mock.sockets[0]!.closeCode).toBe(1000);
  });

  it('a failing text source fails the call with its own error, cancels the context and keeps the socket warm', async () => {
    const { loop, tts } = await start();
    const source = pushable<string>();
    source.push('Hello ');
    const boom = new Error('LLM stream failed');
    const iterator = tts
      .synthesize({ text: source, voice: 'v', format }, loop.attempt())
      [Symbol.asyncIterator]();
    await iterator.next();
    source.fail(boom);
    const { error } = await collectUntilError({ [Symbol.asyncIterator]: () => iterator });
    expect(error).toBe(boom);
    const id = messages(loop)[0]!.context_id;
    await until(() => messages(loop).at(-1)?.cancel === true, 'the cancel arrived');
    expect(messages(loop).at(-1)).toEqual({ context_id: id, cancel: true });
    expect(loop.mock.sockets[0]!.outcome).toBe('pending');
    const next = await collect(tts.synthesize({ text: 'Next.', voice: 'v', format }, loop.attempt()));
    expect(audioOf(next)).toEqual(mockCartesiaAudio('Next.', format));
    expect(loop.mock.calls('tts-websocket')).toBe(1);
    expect(loop.mock.sockets).toHaveLength(1);
  });

  it("transport 'auto': a string goes to /tts/bytes, streamed text to the websocket", async () => {
    loop = await startLoopback();
    const adapter = loop.adapter({ tts: { model: 'sonic-3' } });
    expect(adapter.tts!.capabilities.streamingText).toBe(true);
    await collect(adapter.tts!.synthesize({ text: 'Hi.', voice: 'v', format }, loop.attempt()));
    await collect(adapter.tts!.synthesize({ text: textPieces(['Hi.']), voice: 'v', format }, loop.attempt()));
    expect(loop.mock.requests.map((r) => r.endpoint)).toEqual(['bytes', 'tts-websocket']);
  });
});
