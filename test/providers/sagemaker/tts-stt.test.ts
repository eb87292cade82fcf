import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/wav-writer.js';
import { ConfigError, ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { createSageMakerAdapter, registerSageMakerCodec } from '../../../src/providers/sagemaker/index.js';
import type { SageMakerAdapterOptions } from '../../../src/providers/sagemaker/options.js';
import {
  mockSpeechPcm,
  type SageMakerEmulator,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  startSageMakerEmulator,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import { expectSameBytes } from '../../testing/helpers.js';
import { attemptOf, collect, collectUntilError, credentials, partsOf } from './helpers.js';

let emulator: SageMakerEmulator;
beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    endpoints: {
      sonic: sageMakerTtsEndpoint({ payload: 'cartesia', script: { chunkBytes: 999 } }),
      sonicSplit: sageMakerTtsEndpoint({ payload: 'cartesia', script: { partBytes: 100 } }),
      sonicCut: sageMakerTtsEndpoint({ payload: 'cartesia', script: { endWithoutDone: true } }),
      sonicError: {
        reply: {
          parts: [
            'data: {"type":"error","done":true,"status_code":429,"error_code":"concurrency_limited","title":"Busy","message":"Too many requests"}\n\n',
          ],
        },
      },
      pcm: sageMakerTtsEndpoint({ payload: 'raw-pcm', script: { chunkBytes: 1001 } }),
      whisper: sageMakerSttEndpoint({ transcript: 'Table for two at eight.', partials: true }),
      whisperCut: { reply: { parts: ['{"type":"partial","text":"Table"}\n'] } },
    },
  });
});
afterAll(() => emulator.close());

/** The adapter of emulator endpoint `endpointName` with the capability sections `sections`. */
function adapter(endpointName: string, sections: Pick<SageMakerAdapterOptions, 'tts' | 'stt'>) {
  return createSageMakerAdapter({
    ...sections,
    name: 'sm',
    region: 'us-east-1',
    endpointName,
    endpointUrl: emulator.url,
    credentials,
  });
}

/** The TTS of endpoint `endpointName` through codec `payload` at `sampleRate` Hz. */
const ttsOf = (endpointName: string, payload: string, sampleRate: number) =>
  adapter(endpointName, { tts: { payload, sampleRate } }).tts!;

/** The STT of endpoint `endpointName` through codec `payload` at `sampleRate` Hz. */
const sttOf = (endpointName: string, payload: string, sampleRate: number) =>
  adapter(endpointName, { stt: { payload, sampleRate } }).stt!;

const join = (chunks: Uint8Array[]) => Buffer.concat(chunks.map((c) => Buffer.from(c)));

describe('SageMaker TTS over the emulator', () => {
  it("'cartesia': sends Cartesia's body and yields the decoded base64 audio labelled with the asked format", async () => {
    const tts = ttsOf('sonic', 'cartesia', 16_000);
    expect(tts.capabilities).toEqual({
      outputFormats: [{ encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 }],
      streamingText: false,
      wordTimestamps: false,
    });
    const format = tts.capabilities.outputFormats[0]!;
    const audio = await collect(
      tts.synthesize(
        { text: 'Hello there.', voice: 'voice-123', model: 'sonic-3', format, language: 'en', speed: 1 },
        attemptOf(),
      ),
    );
    expect(audio.every((a) => a.format === format)).toBe(true);
    // 12 characters x 60 ms = 720 ms at 16 kHz = 23040 bytes: 23 parts of 999 bytes and 63 bytes.
    expect(audio.map((a) => a.data.byteLength)).toEqual([...Array<number>(23).fill(999), 63]);
    expectSameBytes(join(audio.map((a) => a.data)), mockSpeechPcm('Hello there.', { sampleRate: 16_000 }));
    expect(emulator.requests.at(-1)!.body).toEqual({
      model_id: 'sonic-3',
      transcript: 'Hello there.',
      voice: { mode: 'id', id: 'voice-123' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16_000 },
      language: 'en',
      generation_config: { speed: 1 },
    });
  });

  it("'cartesia': messages split into 100-byte PayloadParts give the same audio", async () => {
    const tts = ttsOf('sonicSplit', 'cartesia', 24_000);
    const format = tts.capabilities.outputFormats[0]!;
    const audio = await collect(tts.synthesize({ text: 'Split me.', voice: 'v', format }, attemptOf()));
    expectSameBytes(join(audio.map((a) => a.data)), mockSpeechPcm('Split me.'));
  });

  it("'cartesia': no done message is a truncated ProtocolError; an error message a ProviderError by status_code", async () => {
    const cut = ttsOf('sonicCut', 'cartesia', 24_000);
    const format = cut.capabilities.outputFormats[0]!;
    const truncated = await collectUntilError(
      cut.synthesize({ text: 'Hi.', voice: 'v', format }, attemptOf()),
    );
    expect(truncated.items.length).toBeGreaterThan(0);
    expect(ProtocolError.isInstance(truncated.error)).toBe(true);
    expect(truncated.error).toMatchObject({ partialOutput: true, retryable: true });

    const busy = ttsOf('sonicError', 'cartesia', 24_000);
    const failed = await collectUntilError(busy.synthesize({ text: 'Hi.', voice: 'v', format }, attemptOf()));
    expect(ProviderError.isInstance(failed.error)).toBe(true);
    expect(failed.error).toMatchObject({
      providerCode: 'concurrency_limited',
      retryable: true,
      partialOutput: false,
    });
  });

  it("'raw-pcm': yields the PayloadPart bytes as they come (odd sizes split samples)", async () => {
    const tts = ttsOf('pcm', 'raw-pcm', 22_050);
    const format = tts.capabilities.outputFormats[0]!;
    const audio = await collect(tts.synthesize({ text: 'Hey.', voice: 'af_heart', format }, attemptOf()));
    expect(audio[0]!.data.byteLength).toBe(1001);
    expectSameBytes(join(audio.map((a) => a.data)), mockSpeechPcm('Hey.', { sampleRate: 22_050 }));
    expect(emulator.requests.at(-1)!.body).toEqual({
      text: 'Hey.',
      voice: 'af_heart',
      sample_rate: 22_050,
      encoding: 'pcm_s16le',
    });
  });
});

describe('SageMaker STT over the emulator', () => {
  const format = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };
  const utterance = syntheticVoiceBytes({ durationMs: 500, sampleRate: 16_000, seed: 3 });

  it("'wav': sends one WAV file and streams partials then the final", async () => {
    const stt = sttOf('whisper', 'wav', 16_000);
    expect(stt.capabilities).toEqual({ inputFormats: [format], streamingInput: false });
    const events = await collect(
      stt.transcribe(
        { audio: partsOf([utterance.subarray(0, 3001), utterance.subarray(3001)]), format, interim: true },
        attemptOf(),
      ),
    );
    expect(events).toEqual([
      { type: 'partial', text: 'Table' },
      { type: 'partial', text: 'Table for' },
      { type: 'partial', text: 'Table for two' },
      { type: 'partial', text: 'Table for two at' },
      { type: 'partial', text: 'Table for two at eight.' },
      { type: 'final', text: 'Table for two at eight.', startMs: 0, endMs: 500 },
    ]);
    const record = emulator.requests.at(-1)!;
    expect(record.headers['content-type']).toBe('audio/wav');
    expectSameBytes(record.body as Uint8Array, encodeWav(format, utterance));
  });

  it("'raw-pcm': sends the raw bytes; without interim only the final", async () => {
    const stt = sttOf('whisper', 'raw-pcm', 16_000);
    const events = await collect(
      stt.transcribe({ audio: partsOf([utterance]), format, interim: false }, attemptOf()),
    );
    expect(events).toEqual([{ type: 'final', text: 'Table for two at eight.', startMs: 0, endMs: 500 }]);
    const record = emulator.requests.at(-1)!;
    expect(record.headers['content-type']).toBe('application/octet-stream');
    expectSameBytes(record.body as Uint8Array, utterance);
  });

  it('a stream that ends after a partial without a final is truncated', async () => {
    const stt = sttOf('whisperCut', 'wav', 16_000);
    const { items, error } = await collectUntilError(
      stt.transcribe({ audio: partsOf([utterance]), format, interim: true }, attemptOf()),
    );
    expect(items).toEqual([{ type: 'partial', text: 'Table' }]);
    expect(error).toMatchObject({ code: 'PROTOCOL_ERROR', partialOutput: true });
    expect((error as Error).message).toBe('Transcript stream ended before its final transcript (truncated)');
  });

  it('empty audio sends nothing', async () => {
    const before = emulator.requests.length;
    const stt = sttOf('whisper', 'wav', 16_000);
    expect(await collect(stt.transcribe({ audio: partsOf([]), format, interim: true }, attemptOf()))).toEqual(
      [],
    );
    expect(emulator.requests.length).toBe(before);
  });
});

describe('payload codecs', () => {
  it('an unknown payload is a ConfigError naming the path and the known codecs', () => {
    let caught: unknown;
    try {
      createSageMakerAdapter({
        name: 'sonic',
        region: 'us-east-1',
        endpointName: 'e',
        tts: { payload: 'mp3', sampleRate: 24_000 },
      });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).issues).toEqual([
      {
        path: ['providers', 'sonic', 'tts', 'payload'],
        message:
          'no tts codec named "mp3"; known: "cartesia", "raw-pcm" (register one with registerSageMakerCodec)',
      },
    ]);
  });

  it('a registered codec is used for its capability', async () => {
    registerSageMakerCodec('upper-pcm', {
      capability: 'tts',
      outputFormats: (sampleRate) => [{ encoding: 'mulaw', sampleRate, channels: 1 }],
      encode: ({ request }) => ({
        body: JSON.stringify({ t: request.text.toUpperCase() }),
        contentType: 'application/x-upper',
      }),
      async *decode(parts, { request }) {
        for await (const data of parts) yield { data, format: request.format };
      },
    });
    const tts = ttsOf('pcm', 'upper-pcm', 8000);
    expect(tts.capabilities.outputFormats).toEqual([{ encoding: 'mulaw', sampleRate: 8000, channels: 1 }]);
    await collect(
      tts.synthesize({ text: 'abc', voice: 'v', format: tts.capabilities.outputFormats[0]! }, attemptOf()),
    );
    const record = emulator.requests.at(-1)!;
    expect(record.body).toEqual({ t: 'ABC' });
    expect(record.headers['content-type']).toBe('application/x-upper');
    expect(() => registerSageMakerCodec('', { capability: 'tts' } as never)).toThrow(TypeError);
    expect(() => registerSageMakerCodec('x', { capability: 'video' } as never)).toThrow(
      "SageMaker codec 'x' must have capability 'chat', 'tts' or 'stt'",
    );
  });
});
