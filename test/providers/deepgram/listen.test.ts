import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError, TimeoutError } from '../../../src/errors/index.js';
import { createDeepgramAdapter, type DeepgramSttOptions } from '../../../src/providers/deepgram/index.js';
import {
  createDeepgramMock,
  createManualDelay,
  type DeepgramMock,
  type DeepgramMockOptions,
  type MockServer,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { WebSocketTransport } from '../../../src/transport/websocket-types.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import type { TranscriptEvent } from '../../../src/types/transcript.js';
import { FakeClock } from '../../transport/fake-clock.js';
import {
  AudioFeed,
  attemptOf,
  clockDelay,
  collect,
  collectUntilError,
  KEY,
  pieces,
  recordingWebSocket,
} from './helpers.js';

const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
/** `ms` of 16 kHz PCM s16le, cut in 100 ms chunks. */
const audio = (ms: number, seed = 0) =>
  pieces(syntheticAudio({ durationMs: ms, format: PCM16K, seed }), 3200);

let http: HttpTransport;
let webSocket: WebSocketTransport;
let server: MockServer | undefined;
beforeAll(() => {
  http = createHttpTransport();
  webSocket = createWebSocketTransport();
});
afterAll(async () => {
  await http.close();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Setup {
  mock: DeepgramMock;
  clock: FakeClock;
  transcribe(
    feed: AsyncIterable<Uint8Array>,
    options?: { interim?: boolean; signal?: AbortSignal; idleMs?: number; format?: AudioFormat },
  ): AsyncIterable<TranscriptEvent>;
}

async function setup(
  mockOptions: DeepgramMockOptions = {},
  stt: Partial<DeepgramSttOptions> = {},
  adapter: { apiKey?: string; webSocket?: WebSocketTransport } = {},
): Promise<Setup> {
  const clock = new FakeClock();
  const mock = createDeepgramMock({
    apiKey: KEY,
    delay: clockDelay(clock),
    inactivityTimeoutMs: 0,
    ...mockOptions,
  });
  server = await startMockServer({ provider: mock });
  const deepgram = createDeepgramAdapter({
    name: 'dg',
    baseUrl: server.url,
    apiKey: adapter.apiKey ?? KEY,
    stt: { model: 'nova-3', ...stt },
    clock,
  });
  return {
    mock,
    clock,
    transcribe: (feed, options = {}) =>
      deepgram.stt!.transcribe(
        { audio: feed, format: options.format ?? PCM16K, interim: options.interim ?? false },
        attemptOf(http, {
          webSocket: adapter.webSocket ?? webSocket,
          ...(options.signal ? { signal: options.signal } : {}),
          deadlines: { connectMs: 5000, idleMs: options.idleMs ?? 5000 },
        }),
      ),
  };
}

describe('Deepgram listen adapter', () => {
  it('sends the format in the query, the key as Authorization: Token, and maps Results to partials and finals with ms times', async () => {
    const { mock, transcribe } = await setup(
      { transcript: 'One two. Three four', wordMs: 100 },
      { smartFormat: true },
    );
    const feed = new AudioFeed();
    feed.push(...audio(400));
    feed.end();
    const events = await collect(transcribe(feed, { interim: true }));
    expect(events).toEqual([
      {
        type: 'partial',
        text: 'One',
        startMs: 0,
        endMs: 100,
        confidence: 0.98,
        words: [{ word: 'One', startMs: 0, endMs: 100, confidence: 0.98 }],
      },
      {
        type: 'final',
        text: 'One two.',
        startMs: 0,
        endMs: 200,
        confidence: 0.98,
        endOfSpeech: true,
        words: [
          { word: 'One', startMs: 0, endMs: 100, confidence: 0.98 },
          { word: 'two.', startMs: 100, endMs: 200, confidence: 0.98 },
        ],
      },
      {
        type: 'partial',
        text: 'Three',
        startMs: 200,
        endMs: 300,
        confidence: 0.98,
        words: [{ word: 'Three', startMs: 200, endMs: 300, confidence: 0.98 }],
      },
      {
        type: 'partial',
        text: 'Three four',
        startMs: 200,
        endMs: 400,
        confidence: 0.98,
        words: [
          { word: 'Three', startMs: 200, endMs: 300, confidence: 0.98 },
          { word: 'four', startMs: 300, endMs: 400, confidence: 0.98 },
        ],
      },
      {
        type: 'final',
        text: 'Three four',
        startMs: 200,
        endMs: 400,
        confidence: 0.98,
        words: [
          { word: 'Three', startMs: 200, endMs: 300, confidence: 0.98 },
          { word: 'four', startMs: 300, endMs: 400, confidence: 0.98 },
        ],
      },
    ]);
    const session = mock.sessions[0]!;
    expect(session.record.url).toBe(
      `${server!.url}/v1/listen?model=nova-3&encoding=linear16&sample_rate=16000&channels=1&interim_results=true&smart_format=true`,
    );
    expect(session.record.headers.authorization).toBe(`Token ${KEY}`);
    expect(session.audioBytes).toBe(12800);
    expect(session.frames.filter((f) => f.type === 'binary')).toHaveLength(4);
    expect(session.controls).toEqual(['Finalize', 'CloseStream']);
    expect(await session.closed).toMatchObject({ code: 1000 });
  });

  it('marks the final that closes an utterance with endOfSpeech once, though UtteranceEnd follows speech_final', async () => {
    const { mock, transcribe } = await setup(
      { transcript: 'One two. Three four. Five', wordMs: 100 },
      { utteranceEndMs: 1000 },
    );
    const feed = new AudioFeed();
    feed.push(...audio(500));
    feed.end();
    const events = await collect(transcribe(feed));
    expect(events.map((e) => [e.type, e.text, e.endMs, e.endOfSpeech])).toEqual([
      ['final', 'one two', 200, true],
      ['final', 'three four', 400, true],
      ['final', 'five', 500, undefined],
    ]);
    const session = mock.sessions[0]!;
    expect(session.query.utterance_end_ms).toBe('1000');
    expect(
      session.sent
        .map((m) => m as { type: string; speech_final?: boolean; is_final?: boolean; last_word_end?: number })
        .filter((m) => m.type === 'UtteranceEnd' || m.is_final === true)
        .map((m) => [m.type, m.speech_final, m.last_word_end]),
    ).toEqual([
      ['Results', true, undefined],
      ['UtteranceEnd', undefined, 0.2],
      ['Results', true, undefined],
      ['UtteranceEnd', undefined, 0.4],
      ['Results', false, undefined],
    ]);
  });

  it('gives finals only when interim is off (interim_results=false), and sends mu-law 8 kHz as mulaw', async () => {
    const { mock, transcribe } = await setup({ transcript: 'One two. Three', wordMs: 100 });
    const ulaw: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const feed = new AudioFeed();
    feed.push(...pieces(syntheticAudio({ durationMs: 300, format: ulaw }), 800));
    feed.end();
    const events = await collect(transcribe(feed, { format: ulaw }));
    expect(events.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
      ['final', 'one two', 0, 200],
      ['final', 'three', 200, 300],
    ]);
    expect(mock.sessions[0]!.query).toMatchObject({
      encoding: 'mulaw',
      sample_rate: '8000',
      interim_results: 'false',
    });
  });

  it('C14 sibling: after CloseStream it waits for the last Results and Metadata, so the last words are delivered', async () => {
    const time = createManualDelay();
    // No sentence end: every word stays pending until Finalize; the mock holds its answer.
    const { mock, transcribe } = await setup({
      transcript: 'book a table for two',
      wordMs: 100,
      delay: time.delay,
      script: { listen: { firstChunkDelayMs: 700 } },
    });
    const feed = new AudioFeed();
    feed.push(...audio(500));
    feed.end();
    let settled = false;
    const collecting = collect(transcribe(feed)).finally(() => {
      settled = true;
    });
    const session = await mock.session(0);
    await session.waitFor((s) => s.controls.includes('CloseStream'));
    expect(await time.whenWaiting()).toBe(700);
    expect(settled).toBe(false);
    await time.release();
    const events = await collecting;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'final', text: 'book a table for two', startMs: 0, endMs: 500 });
    expect(events[0]!.words!.map((w) => [w.word, w.startMs, w.endMs])).toEqual([
      ['book', 0, 100],
      ['a', 100, 200],
      ['table', 200, 300],
      ['for', 300, 400],
      ['two', 400, 500],
    ]);
    expect((session.sent.at(-1) as { type: string }).type).toBe('Metadata');
  });

  it('C13: with the default keep-alive (2 s) the session survives 10 s without audio (server window 3 s) and the last second is transcribed', async () => {
    const recording = recordingWebSocket(webSocket);
    const { mock, clock, transcribe } = await setup(
      {
        transcript: 'alpha bravo charlie delta echo foxtrot golf hotel',
        wordMs: 250,
        inactivityTimeoutMs: 3000,
      },
      {},
      { webSocket: recording.transport },
    );
    const feed = new AudioFeed();
    const collecting = collect(transcribe(feed));
    feed.push(...audio(1000));
    const session = await mock.session(0);
    await session.waitFor((s) => s.audioBytes === 32000);
    // The audio source waits for the caller's next audio meanwhile: the timer does not wait with it.
    for (let k = 1; k <= 5; k++) {
      clock.advance(1999);
      expect(recording.sent).toHaveLength(9 + k); // 10 audio chunks, no KeepAlive yet
      clock.advance(1);
      expect(recording.sent.at(-1)).toBe('{"type":"KeepAlive"}');
      await session.waitFor((s) => s.controls.length === k);
    }
    expect(session.controls).toEqual(Array(5).fill('KeepAlive'));
    expect(session.frames.filter((f) => f.type === 'text').map((f) => (f as { data: string }).data)).toEqual(
      Array(5).fill('{"type":"KeepAlive"}'),
    );
    expect(session.close).toBeUndefined();
    feed.push(...audio(1000, 1));
    feed.end();
    const events = await collecting;
    expect(events.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
      ['final', 'alpha bravo charlie delta echo foxtrot golf hotel', 0, 2000],
    ]);
    expect(events[0]!.words!.slice(4).map((w) => [w.word, w.startMs, w.endMs])).toEqual([
      ['echo', 1000, 1250],
      ['foxtrot', 1250, 1500],
      ['golf', 1500, 1750],
      ['hotel', 1750, 2000],
    ]);
    expect(session.audioBytes).toBe(64000);
    expect(session.controls.slice(5)).toEqual(['Finalize', 'CloseStream']);
  });

  it('C13: without keep-alive the server closes 1011 NET-0001 and the adapter raises a typed retryable error, never hangs or throws on a later send', async () => {
    const { mock, clock, transcribe } = await setup(
      { transcript: 'alpha bravo charlie delta echo', wordMs: 250, inactivityTimeoutMs: 10_000 },
      { keepAliveIntervalMs: 0 },
    );
    const feed = new AudioFeed();
    const failing = collectUntilError(transcribe(feed));
    feed.push(...audio(1000));
    const session = await mock.session(0);
    await session.waitFor((s) => s.audioBytes === 32000);
    clock.advance(10_000);
    const { items, error } = await failing;
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect({
      status: e.status,
      providerCode: e.providerCode,
      retryable: e.retryable,
      partialOutput: e.partialOutput,
      idleTimeout: e.idleTimeout,
      provider: e.provider,
    }).toEqual({
      status: 1011,
      providerCode: 'NET-0001',
      retryable: true,
      partialOutput: false,
      idleTimeout: true,
      provider: 'dg',
    });
    expect(e.message).toContain('NET-0001');
    expect(e.message).not.toContain(KEY);
    expect(session.close).toMatchObject({ code: 1011, by: 'server' });
    // The caller's next audio goes nowhere and throws nothing.
    feed.push(...audio(1000, 1));
    await feed.whenReturned;
    expect(session.audioBytes).toBe(32000);
  });

  it('1008 close (invalid key) is a ProviderError that is not retryable, with no key in the message', async () => {
    const { transcribe } = await setup({
      script: { listen: { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' } },
    });
    const feed = new AudioFeed();
    feed.push(...audio(1000));
    feed.end();
    const { error } = await collectUntilError(transcribe(feed));
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.status, e.retryable, e.isAuthError, e.providerCode]).toEqual([1008, false, true, undefined]);
    expect(e.message).toContain('invalid api key');
    expect(e.message).not.toContain(KEY);
  });

  it('a refused upgrade (401) is a non-retryable ProviderError; the key is in no message', async () => {
    const wrongKey = 'dg-wrong-key-9876543210';
    const { mock, transcribe } = await setup({}, {}, { apiKey: wrongKey });
    const feed = new AudioFeed();
    feed.end();
    const { error } = await collectUntilError(transcribe(feed));
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect([e.status, e.retryable]).toEqual([401, false]);
    expect(e.message).not.toContain(wrongKey);
    expect(String(e.cause ?? '')).not.toContain(wrongKey);
    expect(mock.requests[0]!.headers.authorization).toBe(`Token ${wrongKey}`);
  });

  it('abort closes the socket at once and throws AbortError', async () => {
    const { mock, transcribe } = await setup();
    const controller = new AbortController();
    const feed = new AudioFeed();
    const failing = collectUntilError(transcribe(feed, { signal: controller.signal }));
    feed.push(...audio(200));
    const session = await mock.session(0);
    await session.waitFor((s) => s.audioBytes === 6400);
    controller.abort();
    const { error } = await failing;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(await session.closed).toMatchObject({ by: 'client' });
    expect(await session.record.ended).toBe('aborted');
    // Audio that comes later is not sent: the pump stops at its next chunk.
    feed.push(...audio(100, 1));
    await feed.whenReturned;
    expect(session.audioBytes).toBe(6400);
  });

  it('leaving the loop after the first event closes the socket', async () => {
    const { mock, transcribe } = await setup({ transcript: 'One. Two.', wordMs: 100 });
    const feed = new AudioFeed();
    feed.push(...audio(200));
    const seen: string[] = [];
    for await (const event of transcribe(feed)) {
      seen.push(event.text);
      break;
    }
    expect(seen).toEqual(['one']);
    const session = mock.sessions[0]!;
    expect(await session.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(session.controls).toEqual([]);
  });

  it('a malformed message is a ProtocolError with partialOutput once a transcript was yielded', async () => {
    const { transcribe } = await setup({
      transcript: 'a b c',
      wordMs: 100,
      script: { listen: { malformedAfterChunks: 1 } },
    });
    const feed = new AudioFeed();
    feed.push(...audio(300));
    const { items, error } = await collectUntilError(transcribe(feed, { interim: true }));
    expect(items.map((e) => e.text)).toEqual(['a']);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect([(error as ProtocolError).retryable, (error as ProtocolError).partialOutput]).toEqual([
      true,
      true,
    ]);
  });

  it('a normal close before the audio ended is a ProtocolError (words would be lost)', async () => {
    const { transcribe } = await setup({
      script: { listen: { closeAfterChunks: 0, closeCode: 1000, closeReason: '' } },
    });
    const feed = new AudioFeed();
    // 'Hello from the mock.' ends at 1600 ms: the first final is where the mock closes instead.
    feed.push(...audio(2000));
    const { error } = await collectUntilError(transcribe(feed));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toContain('before the end of the audio');
  });

  it('no message within the idle deadline after CloseStream is a TimeoutError (idle)', async () => {
    const { mock, clock, transcribe } = await setup({ script: { listen: { stallAfterChunks: 0 } } });
    const feed = new AudioFeed();
    feed.push(...audio(300));
    feed.end();
    const failing = collectUntilError(transcribe(feed, { idleMs: 2000 }));
    const session = await mock.session(0);
    await session.waitFor((s) => s.controls.includes('CloseStream'));
    clock.advance(1999);
    expect(session.close).toBeUndefined();
    clock.advance(1);
    const { error } = await failing;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect([(error as TimeoutError).phase, (error as TimeoutError).timeoutMs]).toEqual(['idle', 2000]);
    expect(await session.closed).toMatchObject({ by: 'client' });
  });

  it('the error of the caller audio source ends the stream and closes the socket', async () => {
    const { mock, transcribe } = await setup();
    const feed = new AudioFeed();
    const failing = collectUntilError(transcribe(feed));
    feed.push(...audio(100));
    const session = await mock.session(0);
    await session.waitFor((s) => s.audioBytes === 3200);
    const boom = new Error('microphone unplugged');
    feed.fail(boom);
    expect((await failing).error).toBe(boom);
    expect(await session.closed).toMatchObject({ by: 'client' });
  });

  it('sends the key as the subprotocols "token, <key>" when asked, or when the transport cannot send headers', async () => {
    const headerless: WebSocketTransport = {
      canSendHeaders: false,
      connect: (request) => webSocket.connect(request),
    };
    for (const [stt, transport] of [
      [{ auth: 'subprotocol' as const }, webSocket],
      [{ auth: 'auto' as const }, headerless],
    ] as const) {
      const { mock, transcribe } = await setup({ transcript: 'Hi.', wordMs: 100 }, stt, {
        webSocket: transport,
      });
      const feed = new AudioFeed();
      feed.push(...audio(100));
      feed.end();
      expect((await collect(transcribe(feed))).map((e) => e.text)).toEqual(['hi']);
      const headers = mock.requests[0]!.headers;
      expect(headers['sec-websocket-protocol']).toBe(`token, ${KEY}`);
      expect(headers.authorization).toBeUndefined();
      await server!.close();
      server = undefined;
    }
  });
});
