import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError, TimeoutError } from '../../../src/errors/index.js';
import { createElevenLabsAdapter, type ElevenLabsAudio } from '../../../src/providers/elevenlabs/index.js';
import type { ElevenLabsTtsOptions } from '../../../src/providers/elevenlabs/options.js';
import {
  createElevenLabsMock,
  createManualDelay,
  type ElevenLabsMockOptions,
  type MockServer,
  type MockSocket,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  deferred,
  expectSameBytes,
  FakeClock,
  gatedText,
  joined,
  recordingWebSocket,
} from './helpers.js';

const KEY = 'xi-secret-key-7890abcdef';
const PCM16: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
const never = new Promise<void>(() => {});

let server: MockServer | undefined;
let http: HttpTransport | undefined;
afterEach(async () => {
  await http?.close();
  await server?.close();
  server = undefined;
  http = undefined;
});

interface Setup {
  mock?: ElevenLabsMockOptions;
  tts?: ElevenLabsTtsOptions;
  canSendHeaders?: boolean;
  clock?: FakeClock;
  apiKey?: string;
}

/**
 * A stream-input server written here (not the mock) that, at each message, calls `answer` with
 * the socket and the key that message carried; synthesizes 'Hi.' through it and returns the
 * error the synthesis ended with.
 */
async function keyEchoError(answer: (socket: MockSocket, key: string) => void): Promise<unknown> {
  const echo = {
    requests: [],
    handle: async () => new Response(null, { status: 404 }),
    upgrade: () => ({
      accept: (socket: MockSocket) => {
        socket.onMessage((data) => {
          answer(socket, (JSON.parse(data as string) as Record<string, string>)['xi-api-key']!);
        });
      },
    }),
  };
  server = await startMockServer({ provider: echo });
  http = createHttpTransport();
  const adapter = createElevenLabsAdapter({
    name: 'eleven',
    baseUrl: server.url,
    apiKey: KEY,
    tts: { transport: 'websocket' },
  });
  const webSocket = recordingWebSocket(createWebSocketTransport(), false);
  const { error } = await collectUntilError(
    adapter.tts!.synthesize({ text: 'Hi.', voice: 'v', format: PCM16 }, attemptOf(http, { webSocket })),
  );
  return error;
}

async function setup(options: Setup = {}) {
  const mock = createElevenLabsMock({ apiKey: KEY, ...options.mock });
  server = await startMockServer({ provider: mock });
  http = createHttpTransport();
  const webSocket = recordingWebSocket(createWebSocketTransport(), options.canSendHeaders ?? true);
  const adapter = createElevenLabsAdapter({
    name: 'eleven',
    baseUrl: server.url,
    apiKey: options.apiKey ?? KEY,
    tts: { model: 'eleven_flash_v2_5', transport: 'websocket', ...options.tts },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const attempt = (extra: { signal?: AbortSignal; idleMs?: number } = {}) =>
    attemptOf(http!, {
      webSocket,
      ...(extra.signal ? { signal: extra.signal } : {}),
      deadlines: { connectMs: 5000, idleMs: extra.idleMs ?? 5000 },
    });
  return { mock, tts: adapter.tts!, webSocket, attempt };
}

describe('ElevenLabs stream-input WebSocket over a loopback socket', () => {
  it('a string text: init " ", the text ending with a space, "" to end; exact audio; closes after isFinal', async () => {
    const { mock, tts, attempt } = await setup({
      tts: { voiceSettings: { stability: 0.5, similarityBoost: 0.75 }, chunkLengthSchedule: [50, 120] },
    });
    const chunks = await collect(
      tts.synthesize(
        { text: 'Your table is booked.', voice: 'voice-9', format: PCM16, language: 'fr-FR', speed: 1.1 },
        attempt(),
      ),
    );
    const socket = mock.sockets[0]!;
    expect(socket.voiceId).toBe('voice-9');
    expect(socket.query).toEqual({
      model_id: 'eleven_flash_v2_5',
      output_format: 'pcm_16000',
      language_code: 'fr',
    });
    expect(socket.headers['xi-api-key']).toBe(KEY);
    expect(socket.auth).toBe('header');
    expect(socket.messages).toEqual([
      {
        text: ' ',
        voice_settings: { stability: 0.5, similarity_boost: 0.75, speed: 1.1 },
        generation_config: { chunk_length_schedule: [50, 120] },
      },
      { text: 'Your table is booked. ' },
      { text: '' },
    ]);
    expect(socket.generations).toEqual(['Your table is booked. ']);
    expectSameBytes(joined(chunks), mockElevenLabsAudio('Your table is booked. ', PCM16, {}, 1.1));
    for (const chunk of chunks) expect(chunk.format).toEqual(PCM16);
    expect(socket.sent.at(-1)).toEqual({ isFinal: true });
    expect(await socket.closed).toEqual({ code: 1000, reason: '' });
  });

  it('mu-law 8 kHz: asks ulaw_8000 and yields the exact G.711 bytes', async () => {
    const format: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const { mock, tts, attempt } = await setup({ mock: { script: { streamInput: { chunkBytes: 333 } } } });
    const chunks = await collect(tts.synthesize({ text: 'Hi there.', voice: 'v', format }, attempt()));
    expect(mock.sockets[0]!.query.output_format).toBe('ulaw_8000');
    expect(chunks.length).toBe(Math.ceil(mockElevenLabsAudio('Hi there. ', format).byteLength / 333));
    expectSameBytes(joined(chunks), mockElevenLabsAudio('Hi there. ', format));
  });

  it('puts the key in the first message when the transport cannot send headers', async () => {
    const { mock, tts, attempt } = await setup({ canSendHeaders: false });
    await collect(tts.synthesize({ text: 'Hello.', voice: 'v', format: PCM16 }, attempt()));
    const socket = mock.sockets[0]!;
    expect(socket.headers['xi-api-key']).toBeUndefined();
    expect(socket.auth).toBe('message');
    expect(socket.messages[0]).toEqual({ text: ' ', 'xi-api-key': KEY });
    expect(new URL(socket.url).search).not.toContain(KEY);
  });

  it('auto: streamed text goes over the WebSocket, a string over HTTP', async () => {
    const { mock, tts, attempt } = await setup({ tts: { transport: 'auto' } });
    expect(tts.capabilities).toMatchObject({ streamingText: true, wordTimestamps: false });
    await collect(
      tts.synthesize({ text: gatedText(['Hello ', 'there.']), voice: 'v', format: PCM16 }, attempt()),
    );
    expect(mock.calls('stream-input')).toBe(1);
    expect(mock.calls('stream')).toBe(0);
    await collect(tts.synthesize({ text: 'Hello there.', voice: 'v', format: PCM16 }, attempt()));
    expect(mock.calls('stream')).toBe(1);
    expect(mock.calls('stream-input')).toBe(1);
  });

  it('streamed text: words are never cut, sentence ends flush, keep-alive " " during a pause, "" ends', async () => {
    const time = createManualDelay();
    const clock = new FakeClock();
    const gate = deferred();
    const { mock, tts, attempt } = await setup({
      clock,
      mock: { delay: time.delay, inactivityTimeoutMs: 20_000 },
      tts: { keepAliveIntervalMs: 10_000 },
    });
    const text = gatedText(['Hel', 'lo ', 'wor'], [undefined, undefined, gate.promise]);
    const run = collect(
      tts.synthesize(
        {
          text: (async function* () {
            yield* text;
            yield 'ld. Bye';
          })(),
          voice: 'v',
          format: PCM16,
        },
        attempt(),
      ),
    );
    const socket = await mock.whenSocket(0);
    await socket.whenMessages(2);
    expect(socket.messages).toEqual([{ text: ' ' }, { text: 'Hello ' }]);
    // The text stream pauses: the server's inactivity window is running, and so is our keep-alive.
    expect(time.pending).toBe(1);
    clock.advance(10_000);
    await socket.whenMessages(3);
    expect(socket.messages[2]).toEqual({ text: ' ' });
    clock.advance(10_000);
    await socket.whenMessages(4);
    expect(socket.messages[3]).toEqual({ text: ' ' });
    // Every message restarted the server's 20 s window, which never ran out.
    expect(time.requested).toEqual([20_000, 20_000, 20_000, 20_000, 20_000]);
    expect(time.pending).toBe(1);
    gate.resolve();
    const chunks = await run;
    expect(socket.messages.slice(4)).toEqual([
      { text: 'world. ', flush: true },
      { text: 'Bye ' },
      { text: '' },
    ]);
    expect(socket.generations).toEqual(['Hello world. ', 'Bye ']);
    expectSameBytes(
      joined(chunks),
      Buffer.concat([mockElevenLabsAudio('Hello world. ', PCM16), mockElevenLabsAudio('Bye ', PCM16)]),
    );
    expect(await socket.closed).toEqual({ code: 1000, reason: '' });
    expect(clock.pending).toBe(0);
  });

  it('alignment becomes word timings in ms from the start of the synthesis, across generations', async () => {
    const { tts, attempt } = await setup({ mock: { script: { streamInput: { chunkBytes: 6400 } } } });
    const chunks: ElevenLabsAudio[] = await collect(
      tts.synthesize(
        { text: gatedText(['Hi there. ', 'How are you? ']), voice: 'v', format: PCM16 },
        attempt(),
      ),
    );
    const words = chunks.flatMap((chunk) => chunk.words ?? []);
    // 60 ms a character: "Hi there. " is 600 ms; the second generation starts 600 ms in.
    expect(words).toEqual([
      { word: 'Hi', startMs: 0, endMs: 120 },
      { word: 'there.', startMs: 180, endMs: 540 },
      { word: 'How', startMs: 600, endMs: 780 },
      { word: 'are', startMs: 840, endMs: 1020 },
      { word: 'you?', startMs: 1080, endMs: 1320 },
    ]);
    expect(chunks.filter((chunk) => chunk.words !== undefined)).toHaveLength(2);
    expect(tts.capabilities.wordTimestamps).toBe(true);
  });

  it("reads the asyncapi's charsDurationsMs spelling too", async () => {
    const { tts, attempt } = await setup({ mock: { alignmentDurationsKey: 'charsDurationsMs' } });
    const chunks = await collect(tts.synthesize({ text: 'Good day.', voice: 'v', format: PCM16 }, attempt()));
    expect(chunks[0]!.words).toEqual([
      { word: 'Good', startMs: 0, endMs: 240 },
      { word: 'day.', startMs: 300, endMs: 540 },
    ]);
  });

  it('without keep-alive the server closes a paused stream: input_timeout_exceeded, retryable, status 1008', async () => {
    const time = createManualDelay();
    const { mock, tts, attempt } = await setup({
      mock: { delay: time.delay },
      tts: { keepAliveIntervalMs: 1_000_000 },
    });
    const run = collectUntilError(
      tts.synthesize(
        { text: gatedText(['Hello ', 'world.'], [undefined, never]), voice: 'v', format: PCM16 },
        attempt(),
      ),
    );
    const socket = await mock.whenSocket(0);
    await socket.whenMessages(2);
    expect(await time.release()).toBe(20_000);
    const { items, error } = await run;
    expect(items).toHaveLength(0);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 1008,
      providerCode: 'input_timeout_exceeded',
      retryable: true,
      partialOutput: false,
    });
    expect((await socket.closed).code).toBe(1008);
  });

  it('a socket that closed while idle (no text yet) is replaced before the text is sent', async () => {
    const time = createManualDelay();
    const gate = deferred();
    const { mock, tts, attempt, webSocket } = await setup({
      mock: { delay: time.delay },
      tts: { keepAliveIntervalMs: 1_000_000 },
    });
    const run = collect(
      tts.synthesize(
        { text: gatedText(['Hello world.'], [gate.promise]), voice: 'v', format: PCM16 },
        attempt(),
      ),
    );
    const first = await mock.whenSocket(0);
    await first.whenMessages(1);
    await time.release(); // the server's inactivity window runs out while the LLM thinks
    expect((await first.closed).code).toBe(1008);
    await webSocket.connections[0]!.closed;
    gate.resolve();
    const chunks = await run;
    expect(mock.sockets).toHaveLength(2);
    expect(first.messages).toEqual([{ text: ' ' }]);
    expect(mock.sockets[1]!.messages).toEqual([
      { text: ' ' },
      { text: 'Hello ' },
      { text: 'world. ', flush: true },
      { text: '' },
    ]);
    expectSameBytes(joined(chunks), mockElevenLabsAudio('Hello world. ', PCM16));
  });

  it('C18: a 1008 close right after the upgrade fails at once, not retryable, even while text is pending', async () => {
    const { tts, attempt } = await setup({
      mock: {
        script: { streamInput: { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' } },
      },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: gatedText(['Hi ', 'there.'], [never]), voice: 'v', format: PCM16 }, attempt()),
    );
    expect(items).toHaveLength(0);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 1008, retryable: false, partialOutput: false, provider: 'eleven' });
    expect((error as ProviderError).isAuthError).toBe(true);
    expect((error as Error).message).toContain('invalid api key');
  });

  it('close 1008 reason: a 1008 for too many concurrent streams is transient (retryable), not an auth failure', async () => {
    const { tts, attempt } = await setup({
      mock: {
        script: {
          streamInput: {
            closeAfterChunks: 0,
            closeCode: 1008,
            closeReason: 'Maximum number of concurrent streams reached',
          },
        },
      },
    });
    const { error } = await collectUntilError(
      tts.synthesize({ text: gatedText(['Hi ', 'there.']), voice: 'v', format: PCM16 }, attempt()),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 1008, retryable: true, partialOutput: false });
    expect((error as ProviderError).isAuthError).toBe(false);
  });

  it('C18: a wrong key gets the error message and a 1008 close: invalid_api_key, no key in the error', async () => {
    const { tts, attempt } = await setup({ apiKey: 'xi-wrong-key-000000' });
    const { error } = await collectUntilError(
      tts.synthesize({ text: gatedText(['Hi'], [never]), voice: 'v', format: PCM16 }, attempt()),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 1008, providerCode: 'invalid_api_key', retryable: false });
    expect((error as Error).message).not.toContain('xi-wrong-key-000000');
  });

  it('C15: audio stops with no isFinal and no close: TimeoutError idle, partialOutput true, socket closed', async () => {
    const { mock, tts, attempt } = await setup({
      mock: { script: { streamInput: { chunkBytes: 1000, stallAfterChunks: 3 } } },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize(
        { text: 'This reply will stall after three chunks.', voice: 'v', format: PCM16 },
        attempt({ idleMs: 100 }),
      ),
    );
    expect(items).toHaveLength(3);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'idle', partialOutput: true, retryable: true });
    expect((await mock.sockets[0]!.closed).code).toBe(1000);
  });

  it('abort after the first chunk: AbortError and the socket is closed', async () => {
    const { mock, tts, attempt } = await setup();
    const abort = new AbortController();
    const iterator = tts
      .synthesize(
        { text: gatedText(['Hello there. ', 'More.'], [undefined, never]), voice: 'v', format: PCM16 },
        attempt({ signal: abort.signal }),
      )
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    abort.abort();
    await expect(iterator.next()).rejects.toSatisfy((e) => AbortError.isInstance(e));
    const closed = await mock.sockets[0]!.closed;
    expect([1000, 1005, 1006]).toContain(closed.code);
  });

  it('breaking out of the loop closes the socket at once', async () => {
    const time = createManualDelay();
    const { mock, tts, attempt } = await setup({
      mock: { delay: time.delay, script: { streamInput: { chunkBytes: 500, chunkGapMs: 40 } } },
    });
    for await (const _ of tts.synthesize(
      { text: 'A rather long sentence to speak.', voice: 'v', format: PCM16 },
      attempt(),
    )) {
      expect(await time.whenWaiting()).toBe(40); // the mock holds the second chunk
      break;
    }
    const socket = mock.sockets[0]!;
    expect((await socket.closed).code).toBe(1000);
    expect(socket.chunksSent).toBe(1);
    expect(socket.sent.some((m) => (m as { isFinal?: boolean }).isFinal)).toBe(false);
  });

  it('an error message after audio: ProviderError with its code, partialOutput true', async () => {
    const { tts, attempt } = await setup({
      mock: {
        script: {
          streamInput: {
            chunkBytes: 1000,
            errorEventAfterChunks: 1,
            errorEvent: { code: 'system_busy', message: 'busy now' },
          },
        },
      },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: 'Hello there, friend.', voice: 'v', format: PCM16 }, attempt()),
    );
    expect(items).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 1011,
      providerCode: 'system_busy',
      retryable: true,
      partialOutput: true,
    });
    expect((error as Error).message).toContain('busy now');
  });

  it('a connection dropped after audio: retryable ProviderError 1006 with partialOutput', async () => {
    const { mock, tts, attempt } = await setup({
      mock: { script: { streamInput: { chunkBytes: 1000, resetAfterChunks: 2 } } },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: 'Hello there, friend.', voice: 'v', format: PCM16 }, attempt()),
    );
    expect(items).toHaveLength(2);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 1006, retryable: true, partialOutput: true });
    expect(await mock.requests[0]!.ended).toBe('reset');
  });

  it('C29: a clean close after "" without isFinal is a truncated ProtocolError', async () => {
    const { tts, attempt } = await setup({ mock: { script: { streamInput: { endWithoutDone: true } } } });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: 'Hello.', voice: 'v', format: PCM16 }, attempt()),
    );
    expectSameBytes(joined(items), mockElevenLabsAudio('Hello. ', PCM16));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
    expect((error as Error).message).toContain('before {"isFinal":true} (truncated)');
  });

  it('a bare close whose reason echoes the key (sent in the first message) is redacted', async () => {
    const error = await keyEchoError((socket, key) => socket.close(4001, `unknown key ${key}`));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 4001 });
    expect((error as Error).message).toContain('unknown key [redacted]');
    expect((error as Error).message).not.toContain(KEY);
  });

  it('a frame that is not JSON is a ProtocolError', async () => {
    const { tts, attempt } = await setup({
      mock: { script: { streamInput: { chunkBytes: 1000, malformedAfterChunks: 1 } } },
    });
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: 'Hello there, friend.', voice: 'v', format: PCM16 }, attempt()),
    );
    expect(items).toHaveLength(1);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ partialOutput: true });
  });

  it('a refused upgrade (401) is a ProviderError with the status, not retryable', async () => {
    const { tts, attempt } = await setup({
      mock: { script: { streamInput: { failTimes: 1, failStatus: 401 } } },
    });
    const { error } = await collectUntilError(
      tts.synthesize({ text: 'Hi.', voice: 'v', format: PCM16 }, attempt()),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect((error as Error).message).not.toContain(KEY);
  });

  it('a server that echoes the key (sent in the first message) never gets it into an error', async () => {
    const error = await keyEchoError((socket, key) => {
      socket.send(
        JSON.stringify({ message: `Key ${key} is not valid`, error: 'invalid_api_key', code: 1008 }),
      );
      socket.close(1008, `bad key ${key}`);
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('[redacted]');
    expect((error as Error).message).not.toContain(KEY);
    expect(error).toMatchObject({ status: 1008, retryable: false });
  });
});
