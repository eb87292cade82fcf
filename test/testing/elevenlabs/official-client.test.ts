import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import * as wire from '@elevenlabs/elevenlabs-js/serialization/index.js';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createElevenLabsMock,
  elevenLabsHandlers,
  type MockServer,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';

const KEY = 'xi-official-client-key';
const TEXT = 'The first move is what sets everything in motion.';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts);
}

describe('@elevenlabs/elevenlabs-js against the loopback mock', () => {
  let server: MockServer;
  const mock = createElevenLabsMock({ apiKey: KEY, script: { stream: { chunkBytes: 777 } } });
  beforeAll(async () => {
    server = await startMockServer({ provider: mock });
  });
  afterAll(() => server.close());
  afterEach(() => mock.reset());

  it('textToSpeech.stream completes: exact PCM bytes; the request is what the SDK sends', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const stream = await client.textToSpeech.stream('JBFqnCBsd6RMkjVDRZzb', {
      text: TEXT,
      modelId: 'eleven_flash_v2_5',
      outputFormat: 'pcm_16000',
      voiceSettings: { stability: 0.5, similarityBoost: 0.75 },
    });
    const bytes = await readAll(stream);
    expect(
      bytes.equals(Buffer.from(mockElevenLabsAudio(TEXT, { encoding: 'pcm_s16le', sampleRate: 16000 }))),
    ).toBe(true);
    const [request] = mock.requests;
    expect(request!.path).toBe('/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/stream');
    expect(new URL(request!.url).searchParams.get('output_format')).toBe('pcm_16000');
    expect(request!.headers['xi-api-key']).toBe(KEY);
    expect(request!.body).toEqual({
      text: TEXT,
      model_id: 'eleven_flash_v2_5',
      voice_settings: { stability: 0.5, similarity_boost: 0.75 },
    });
    expect(request!.chunksSent).toBe(Math.ceil(bytes.byteLength / 777));
  });

  it('ulaw_8000: exact mu-law bytes', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const format: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const bytes = await readAll(
      await client.textToSpeech.stream('v1', { text: 'Hello.', outputFormat: 'ulaw_8000' }),
    );
    expect(bytes.equals(Buffer.from(mockElevenLabsAudio('Hello.', format)))).toBe(true);
  });

  it('a wrong key: the SDK raises ElevenLabsError 401 with the detail body', async () => {
    const client = new ElevenLabsClient({ apiKey: 'not-the-key', baseUrl: server.url, maxRetries: 0 });
    const error = await client.textToSpeech
      .stream('v1', { text: 'Hi.', outputFormat: 'pcm_24000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(401);
    expect((error as ElevenLabsError).body).toEqual({
      detail: { status: 'invalid_api_key', message: 'Invalid API key' },
    });
  });
});

describe('@elevenlabs/elevenlabs-js against the msw handlers (default environment)', () => {
  const mock = createElevenLabsMock({ apiKey: KEY });
  const msw = setupServer(...elevenLabsHandlers({ provider: mock }));
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => msw.close());

  it('textToSpeech.stream completes with the exact bytes at api.elevenlabs.io', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, maxRetries: 0 });
    const bytes = await readAll(
      await client.textToSpeech.stream('v1', { text: TEXT, outputFormat: 'pcm_22050' }),
    );
    expect(
      bytes.equals(Buffer.from(mockElevenLabsAudio(TEXT, { encoding: 'pcm_s16le', sampleRate: 22050 }))),
    ).toBe(true);
    expect(mock.requests[0]!.url).toBe(
      'https://api.elevenlabs.io/v1/text-to-speech/v1/stream?output_format=pcm_22050',
    );
  });
});

/**
 * The SDK has no stream-input client (only the message types and their serializers), so the
 * WebSocket side is checked against the SDK's own strict serializers: every frame a client
 * following the documented protocol sends must parse as InitializeConnection / SendText /
 * CloseConnection, and every frame the mock sends must parse as AudioOutput / FinalOutput.
 */
describe('stream-input frames against the SDK serializers', () => {
  let server: MockServer;
  const mock = createElevenLabsMock({ apiKey: KEY, script: { streamInput: { chunkBytes: 4000 } } });
  beforeAll(async () => {
    server = await startMockServer({ provider: mock });
  });
  afterAll(() => server.close());

  it('a documented session: the mock accepts it and every frame both ways fits the SDK schema', async () => {
    const url = `${server.url.replace('http', 'ws')}/v1/text-to-speech/v1/stream-input?model_id=eleven_flash_v2_5&output_format=pcm_24000`;
    const socket = new WebSocket(url);
    const received: unknown[] = [];
    const done = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    const sent = [
      { text: ' ', voice_settings: { stability: 0.5, similarity_boost: 0.8 }, 'xi-api-key': KEY },
      { text: 'Hello there. ', flush: true },
      { text: 'How are you? ', try_trigger_generation: false },
      { text: '' },
    ];
    for (const message of sent) socket.send(JSON.stringify(message));
    expect(await done).toBe(1000);

    expect(wire.InitializeConnection.parse(sent[0]).ok).toBe(true);
    expect(wire.SendText.parse(sent[1]).ok).toBe(true);
    expect(wire.SendText.parse(sent[2]).ok).toBe(true);
    expect(wire.CloseConnection.parse(sent[3]).ok).toBe(true);
    expect(mock.sockets[0]!.generations).toEqual(['Hello there. ', 'How are you? ']);

    const final = received.at(-1);
    expect(final).toEqual({ isFinal: true });
    expect(wire.FinalOutput.parse(final).ok).toBe(true);
    const audio = received.slice(0, -1);
    expect(audio.length).toBeGreaterThan(2);
    for (const message of audio) {
      const parsed = wire.AudioOutput.parse(message);
      expect(parsed.ok).toBe(true);
    }
    const first = wire.AudioOutput.parse(audio[0]);
    expect(first.ok && first.value.alignment?.chars?.join('')).toBe('Hello there. ');
    const joined = Buffer.concat(audio.map((m) => Buffer.from((m as { audio: string }).audio, 'base64')));
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
    const expected = Buffer.concat([
      mockElevenLabsAudio('Hello there. ', format),
      mockElevenLabsAudio('How are you? ', format),
    ]);
    expect(joined.equals(expected)).toBe(true);
  });

  it("the adapter's own frames fit the SDK schema (recorded by the mock)", async () => {
    const { createElevenLabsAdapter } = await import('../../../src/providers/elevenlabs/index.js');
    const { createWebSocketTransport } = await import('../../../src/transport/websocket.js');
    const adapter = createElevenLabsAdapter({
      name: 'eleven',
      baseUrl: server.url,
      apiKey: KEY,
      tts: {
        transport: 'websocket',
        voiceSettings: { speed: 1.1, useSpeakerBoost: true },
        chunkLengthSchedule: [50],
      },
    });
    const webSocket = createWebSocketTransport();
    const noHttp = { request: () => Promise.reject(new Error('no http')), close: async () => {} };
    async function* text() {
      yield 'Sure! ';
      yield 'Your table is booked.';
    }
    for await (const _ of adapter.tts!.synthesize(
      { text: text(), voice: 'v', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
      { signal: new AbortController().signal, deadlines: {}, transport: noHttp, webSocket },
    )) {
      // drain
    }
    const socket = mock.sockets.at(-1)!;
    const [init, ...rest] = socket.messages;
    expect(wire.InitializeConnection.parse(init).ok).toBe(true);
    const end = rest.pop();
    expect(wire.CloseConnection.parse(end).ok).toBe(true);
    expect(rest).toHaveLength(3);
    for (const message of rest) expect(wire.SendText.parse(message).ok).toBe(true);
    for (const message of socket.sent.slice(0, -1)) expect(wire.AudioOutput.parse(message).ok).toBe(true);
  });
});
