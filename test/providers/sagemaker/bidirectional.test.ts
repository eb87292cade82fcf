import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ProviderError } from '../../../src/errors/index.js';
import { createSageMakerAdapter } from '../../../src/providers/sagemaker/index.js';
import {
  mockSpeechPcm,
  type SageMakerDuplexRecord,
  type SageMakerEmulator,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  startSageMakerEmulator,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import { expectSameBytes } from '../../testing/helpers.js';
import { attemptOf, collect, collectUntilError, credentials } from './helpers.js';

let emulator: SageMakerEmulator;
let wrongKey: SageMakerEmulator;
beforeAll(async () => {
  const endpoints = {
    whisper: sageMakerSttEndpoint({ transcript: 'Table for two please.', partials: true }),
    sonic: sageMakerTtsEndpoint({ payload: 'cartesia', script: { chunkBytes: 2400 } }),
    broken: sageMakerTtsEndpoint({
      payload: 'raw-pcm',
      script: { errorEventAfterChunks: 2, errorEvent: { code: 'StreamBroken', message: 'container reset' } },
    }),
    refused: sageMakerTtsEndpoint({ payload: 'raw-pcm', script: { failTimes: 9, failStatus: 424 } }),
    slow: sageMakerTtsEndpoint({ payload: 'raw-pcm', script: { stallAfterChunks: 1 } }),
  };
  [emulator, wrongKey] = await Promise.all([
    startSageMakerEmulator({ endpoints, verifySignatures: { secretAccessKey: credentials.secretAccessKey } }),
    startSageMakerEmulator({ endpoints, verifySignatures: { secretAccessKey: 'not-the-key' } }),
  ]);
});
afterAll(() => Promise.all([emulator.close(), wrongKey.close()]));

const format = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };

function sttAdapter(url: string) {
  return createSageMakerAdapter({
    name: 'sm',
    region: 'us-east-1',
    endpointName: 'whisper',
    endpointUrl: url,
    credentials,
    stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'bidirectional' },
  }).stt!;
}

function ttsAdapter(endpointName: string, payload = 'raw-pcm') {
  return createSageMakerAdapter({
    name: 'sm',
    region: 'us-east-1',
    endpointName,
    endpointUrl: emulator.url,
    credentials,
    targetVariant: 'blue',
    tts: { payload, sampleRate: 24_000, stream: 'bidirectional' },
  }).tts!;
}

/** Audio the test releases chunk by chunk. */
function controlledAudio() {
  const waiting: Array<(chunk: Uint8Array | undefined) => void> = [];
  const queued: Array<Uint8Array | undefined> = [];
  return {
    push(chunk: Uint8Array | undefined) {
      const next = waiting.shift();
      if (next) next(chunk);
      else queued.push(chunk);
    },
    async *audio(): AsyncGenerator<Uint8Array> {
      for (;;) {
        const chunk =
          queued.length > 0
            ? queued.shift()
            : await new Promise<Uint8Array | undefined>((r) => waiting.push(r));
        if (chunk === undefined) return;
        yield chunk;
      }
    },
  };
}

describe('InvokeEndpointWithBidirectionalStream over HTTP/2 (PROTOCOLS 5.5)', () => {
  it('STT: transcripts stream back while audio still flows; envelopes are signed, chained and end with the end frame', async () => {
    const stt = sttAdapter(emulator.url);
    expect(stt.capabilities.streamingInput).toBe(true);
    const audio = syntheticVoiceBytes({ durationMs: 300, sampleRate: 16_000, seed: 5 });
    const chunks = [audio.subarray(0, 3200), audio.subarray(3200, 6400), audio.subarray(6400)];
    const source = controlledAudio();
    const iterator = stt
      .transcribe({ audio: source.audio(), format, interim: true }, attemptOf())
      [Symbol.asyncIterator]();
    source.push(chunks[0]);
    // The first partial arrives while the rest of the audio has not been sent yet.
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'partial', text: 'Table' } });
    source.push(chunks[1]);
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'partial', text: 'Table for' } });
    source.push(chunks[2]);
    source.push(undefined);
    const rest: unknown[] = [];
    for (;;) {
      const step = await iterator.next();
      if (step.done) break;
      rest.push(step.value);
    }
    expect(rest).toEqual([
      { type: 'partial', text: 'Table for two' },
      { type: 'final', text: 'Table for two please.', startMs: 0 },
    ]);
    const record = emulator.requests.at(-1)!;
    expect(record.path).toBe('/endpoints/whisper/invocations-bidirectional-stream');
    expect(record.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    expect(record.headers['x-amz-content-sha256']).toBe('STREAMING-AWS4-HMAC-SHA256-EVENTS');
    expect(record.headers['accept-encoding']).toBe('identity');
    expect(record.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDVOXROUTETEST\/\d{8}\/us-east-1\/sagemaker\/aws4_request, SignedHeaders=accept-encoding;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(record.headers['x-amz-security-token']).toBe(credentials.sessionToken);
    const input = record.body as SageMakerDuplexRecord;
    expect(input.parts.map((p) => [p.bytes.byteLength, p.dataType, p.completionState])).toEqual([
      [3200, 'BINARY', 'PARTIAL'],
      [3200, 'BINARY', 'PARTIAL'],
      [3200, 'BINARY', 'PARTIAL'],
      [0, 'BINARY', 'COMPLETE'],
    ]);
    expectSameBytes(Buffer.concat(input.parts.map((p) => Buffer.from(p.bytes))), audio);
    expect(input).toMatchObject({ endFrame: true, envelopes: 5, badSignatures: 0 });
    expect(input.problem).toBeUndefined();
  });

  it('the emulator catches signatures made with another key (the check can fail)', async () => {
    const stt = sttAdapter(wrongKey.url);
    const audio = syntheticVoiceBytes({ durationMs: 100, sampleRate: 16_000, seed: 1 });
    await collect(
      stt.transcribe(
        {
          audio: (async function* () {
            yield audio;
          })(),
          format,
          interim: false,
        },
        attemptOf(),
      ),
    );
    const input = wrongKey.requests.at(-1)!.body as SageMakerDuplexRecord;
    expect(input).toMatchObject({ endFrame: true, envelopes: 3, badSignatures: 3 });
  });

  it("TTS: the codec's body goes in as one UTF8 COMPLETE part; Cartesia audio comes back", async () => {
    const tts = ttsAdapter('sonic', 'cartesia');
    const out = await collect(
      tts.synthesize(
        { text: 'Hi there.', voice: 'voice-9', format: tts.capabilities.outputFormats[0]! },
        attemptOf(),
      ),
    );
    expectSameBytes(Buffer.concat(out.map((a) => Buffer.from(a.data))), mockSpeechPcm('Hi there.'));
    const record = emulator.requests.at(-1)!;
    expect(record.headers['x-amzn-sagemaker-target-variant']).toBe('blue');
    const input = record.body as SageMakerDuplexRecord;
    expect(input.parts).toHaveLength(1);
    expect(input.parts[0]).toMatchObject({ dataType: 'UTF8', completionState: 'COMPLETE' });
    expect(JSON.parse(new TextDecoder().decode(input.parts[0]!.bytes))).toMatchObject({
      transcript: 'Hi there.',
      voice: { mode: 'id', id: 'voice-9' },
    });
    expect(input.endFrame).toBe(true);
  });

  it('C21: a ModelStreamError on the bidirectional stream after output is retryable with partialOutput', async () => {
    const tts = ttsAdapter('broken');
    const { items, error } = await collectUntilError(
      tts.synthesize(
        { text: 'A longer sentence here.', voice: 'v', format: tts.capabilities.outputFormats[0]! },
        attemptOf(),
      ),
    );
    expect(items).toHaveLength(2);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      providerType: 'ModelStreamError',
      providerCode: 'StreamBroken',
      retryable: true,
      partialOutput: true,
    });
  });

  it('an HTTP error maps by x-amzn-errortype (ModelError 424, not retryable)', async () => {
    const tts = ttsAdapter('refused');
    const { items, error } = await collectUntilError(
      tts.synthesize({ text: 'Hi.', voice: 'v', format: tts.capabilities.outputFormats[0]! }, attemptOf()),
    );
    expect(items).toEqual([]);
    expect(error).toMatchObject({
      code: 'PROVIDER_ERROR',
      status: 424,
      providerCode: 'ModelError',
      retryable: false,
    });
  });

  it('aborting the attempt cancels the HTTP/2 stream', async () => {
    const tts = ttsAdapter('slow');
    const controller = new AbortController();
    const iterator = tts
      .synthesize(
        { text: 'Hello there.', voice: 'v', format: tts.capabilities.outputFormats[0]! },
        attemptOf(controller.signal),
      )
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
    expect(await emulator.requests.at(-1)!.ended).toBe('aborted');
  });

  it('a codec that cannot stream audio in is a ConfigError for stream: "bidirectional"', () => {
    expect(() =>
      createSageMakerAdapter({
        name: 'sm',
        region: 'us-east-1',
        endpointName: 'whisper',
        stt: { payload: 'wav', sampleRate: 16_000, stream: 'bidirectional' },
      }),
    ).toThrow(/the stt codec "wav" cannot stream audio in/);
  });
});
