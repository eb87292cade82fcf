import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createElevenLabsMock,
  type MockServer,
  mockElevenLabsAudio,
  startMockServer,
} from '../../../src/testing/index.js';

const KEY = 'xi-official-timestamps-key';
// 9 characters at 60 ms: 540 ms, at 16 kHz 17,280 bytes, 1,920 bytes (0.06 s) a character.
const TEXT = 'Hi there.';

describe('@elevenlabs/elevenlabs-js textToSpeech.streamWithTimestamps against the loopback mock', () => {
  let server: MockServer;
  const mock = createElevenLabsMock({ apiKey: KEY, script: { stream: { chunkBytes: 4000 } } });
  beforeAll(async () => {
    server = await startMockServer({ provider: mock });
  });
  afterAll(() => server.close());
  afterEach(() => mock.reset());

  it('pcm_16000: the decoded audio is the mock audio byte for byte; every alignment field is exact', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const stream = await client.textToSpeech.streamWithTimestamps('JBFqnCBsd6RMkjVDRZzb', {
      text: TEXT,
      modelId: 'eleven_flash_v2_5',
      outputFormat: 'pcm_16000',
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    // 17,280 bytes in chunks of 4,000: five chunks, the last 1,280 bytes.
    const audio = chunks.map((c) => Buffer.from(c.audioBase64, 'base64'));
    expect(audio.map((a) => a.byteLength)).toEqual([4000, 4000, 4000, 4000, 1280]);
    const expected = mockElevenLabsAudio(TEXT, { encoding: 'pcm_s16le', sampleRate: 16000 });
    expect(Buffer.concat(audio).equals(Buffer.from(expected))).toBe(true);

    // Each chunk carries the characters whose start (n x 1,920 bytes) falls in its audio.
    expect(chunks.map((c) => c.alignment)).toEqual([
      {
        characters: ['H', 'i', ' '],
        characterStartTimesSeconds: [0, 0.06, 0.12],
        characterEndTimesSeconds: [0.06, 0.12, 0.18],
      },
      {
        characters: ['t', 'h'],
        characterStartTimesSeconds: [0.18, 0.24],
        characterEndTimesSeconds: [0.24, 0.3],
      },
      {
        characters: ['e', 'r'],
        characterStartTimesSeconds: [0.3, 0.36],
        characterEndTimesSeconds: [0.36, 0.42],
      },
      {
        characters: ['e', '.'],
        characterStartTimesSeconds: [0.42, 0.48],
        characterEndTimesSeconds: [0.48, 0.54],
      },
      { characters: [], characterStartTimesSeconds: [], characterEndTimesSeconds: [] },
    ]);
    expect(chunks.map((c) => c.normalizedAlignment)).toEqual(chunks.map((c) => c.alignment));

    const [request] = mock.requests;
    expect([request!.path, request!.endpoint, request!.outcome]).toEqual([
      '/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/stream/with-timestamps',
      'stream-with-timestamps',
      'completed',
    ]);
    expect(new URL(request!.url).searchParams.get('output_format')).toBe('pcm_16000');
    expect(request!.headers['xi-api-key']).toBe(KEY);
    expect(request!.body).toEqual({ text: TEXT, model_id: 'eleven_flash_v2_5' });
  });

  it('convertWithTimestamps (POST .../with-timestamps, not streamed): one object, the whole audio and every character', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const result = await client.textToSpeech.convertWithTimestamps('JBFqnCBsd6RMkjVDRZzb', {
      text: TEXT,
      modelId: 'eleven_flash_v2_5',
      outputFormat: 'pcm_16000',
    });
    const expected = mockElevenLabsAudio(TEXT, { encoding: 'pcm_s16le', sampleRate: 16000 });
    expect(Buffer.from(result.audioBase64, 'base64').equals(Buffer.from(expected))).toBe(true);
    const times = [0, 0.06, 0.12, 0.18, 0.24, 0.3, 0.36, 0.42, 0.48, 0.54];
    expect(result.alignment).toEqual({
      characters: Array.from(TEXT),
      characterStartTimesSeconds: times.slice(0, 9),
      characterEndTimesSeconds: times.slice(1),
    });
    expect(result.normalizedAlignment).toEqual(result.alignment);
    const [request] = mock.requests;
    expect([request!.path, request!.endpoint, request!.status, request!.outcome]).toEqual([
      '/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb/with-timestamps',
      'convert-with-timestamps',
      200,
      'completed',
    ]);
    expect(mock.calls('convert-with-timestamps')).toBe(1);
  });

  it("the SDK's default format (mp3_44100_128) gets ElevenLabsError 422 with the validation detail", async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const error = await client.textToSpeech
      .streamWithTimestamps('v1', { text: TEXT })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(422);
    expect((error as ElevenLabsError).body).toEqual({
      detail: [
        {
          loc: ['query', 'output_format'],
          msg: 'The mock server makes raw audio only (pcm_*, ulaw_8000, alaw_8000), not the default mp3_44100_128',
          type: 'value_error',
        },
      ],
    });
  });
});
