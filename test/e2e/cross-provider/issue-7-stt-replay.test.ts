import { describe, expect, it } from 'vitest';
import type { RouterConfig, TranscriptEvent } from '../../../src/index.js';
import {
  createCartesiaMock,
  createDeepgramMock,
  createOpenAiCompatibleMock,
  sageMakerSttEndpoint,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import {
  AWS,
  concat,
  drain,
  emulate,
  outcomes,
  PCM16K,
  pieces,
  router,
  SAME,
  sameBytes,
  serve,
  uploadedPcm,
} from './helpers.js';

type ProviderConfig = RouterConfig['providers'][string];
const BYTES_PER_MS = 32; // PCM s16le 16 kHz mono
const finals = (items: TranscriptEvent[]) =>
  items.filter((e) => e.type === 'final').map((e) => [e.text, e.startMs, e.endMs]);

/** A router over [x, backup] for STT with midStream 'replay'; the backup is an OpenAI-compatible mock. */
async function replayRoute(x: ProviderConfig, backupTranscript: string) {
  const backup = createOpenAiCompatibleMock({ transcript: backupTranscript });
  const url = await serve(backup);
  const r = router({
    providers: {
      x,
      backup: { kind: 'openai-compatible', baseUrl: `${url}/v1`, stt: { model: 'whisper-1' } },
    },
    routes: {
      stt: {
        providers: ['x', 'backup'],
        strategy: 'priority',
        midStream: 'replay',
        firstChunkTimeoutMs: false,
      },
    },
  });
  return { r, backup };
}

describe("issue 7: stt midStream 'replay' across provider kinds", () => {
  it('issue 7: Deepgram closes 1011 after a partial -> the backup hears all the audio; one final, no word lost', async () => {
    const deepgram = createDeepgramMock({
      inactivityTimeoutMs: 0,
      transcript: 'Hello there. How are you.',
      script: { listen: { closeAfterChunks: 1, closeCode: 1011 } },
    });
    const url = await serve(deepgram);
    const { r, backup } = await replayRoute(
      { kind: 'deepgram', baseUrl: url, apiKey: 'dg', stt: { model: 'nova-3', smartFormat: true } },
      'Hello there. How are you.',
    );
    const pcm = syntheticVoiceBytes({ durationMs: 2000, sampleRate: 16_000, seed: 4 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items[0]).toMatchObject({ type: 'partial', text: 'Hello' });
    expect(finals(items)).toEqual([['Hello there. How are you.', 0, 2000]]);
    expect(sameBytes(await uploadedPcm(backup.requests[0]), pcm)).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['x', 'failed'],
      ['backup', 'success'],
    ]);
  });

  it('issue 7: Deepgram closes 1011 after the final "Hello there." -> only the audio after it is replayed; times on the caller timeline', async () => {
    // Messages: partial 'Hello' (400 ms), final 'Hello there.' (0-800 ms), partial 'How' (1200 ms), then the close.
    const deepgram = createDeepgramMock({
      inactivityTimeoutMs: 0,
      transcript: 'Hello there. How are you.',
      script: { listen: { closeAfterChunks: 3, closeCode: 1011 } },
    });
    const url = await serve(deepgram);
    const { r, backup } = await replayRoute(
      { kind: 'deepgram', baseUrl: url, apiKey: 'dg', stt: { model: 'nova-3', smartFormat: true } },
      'How are you.',
    );
    const pcm = syntheticVoiceBytes({ durationMs: 2000, sampleRate: 16_000, seed: 5 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(finals(items)).toEqual([
      ['Hello there.', 0, 800],
      ['How are you.', 800, 2000],
    ]);
    // The backup heard exactly the audio after the last delivered final: no word lost, none twice.
    expect(sameBytes(await uploadedPcm(backup.requests[0]), pcm.subarray(800 * BYTES_PER_MS))).toEqual(SAME);
    expect(backup.requests).toHaveLength(1);
  });

  it('issue 7: Cartesia STT closes 1011 after two partials -> the backup hears all the audio; one final', async () => {
    const cartesia = createCartesiaMock({
      transcript: 'Book a table for two.',
      script: { 'stt-websocket': { closeAfterChunks: 2, closeCode: 1011 } },
    });
    const url = await serve(cartesia);
    const { r, backup } = await replayRoute(
      { kind: 'cartesia', baseUrl: url, apiKey: 'c', stt: { model: 'ink-whisper' } },
      'Book a table for two.',
    );
    const pcm = syntheticVoiceBytes({ durationMs: 1000, sampleRate: 16_000, seed: 6 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.slice(0, 2).map((e) => [e.type, e.text])).toEqual([
      ['partial', 'Book'],
      ['partial', 'Book a'],
    ]);
    expect(finals(items)).toEqual([['Book a table for two.', 0, 1000]]);
    expect(sameBytes(await uploadedPcm(backup.requests[0]), pcm)).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['x', 'failed'],
      ['backup', 'success'],
    ]);
  });

  it('issue 7: OpenAI-compatible (speaches) resets after its first delta -> Cartesia hears all the audio; one final', async () => {
    const speaches = createOpenAiCompatibleMock({
      dialect: 'speaches',
      transcript: 'ask not. what your country.',
      script: { transcription: { resetAfterChunks: 1 } },
    });
    const cartesia = createCartesiaMock({ transcript: 'ask not what your country can do' });
    const [sUrl, cUrl] = await Promise.all([serve(speaches), serve(cartesia)]);
    const r = router({
      providers: {
        x: { kind: 'openai-compatible', baseUrl: `${sUrl}/v1`, stt: { model: 'whisper' } },
        sonic: { kind: 'cartesia', baseUrl: cUrl, apiKey: 'c', stt: { model: 'ink-whisper' } },
      },
      routes: { stt: { providers: ['x', 'sonic'], strategy: 'priority', midStream: 'replay' } },
    });
    const pcm = syntheticVoiceBytes({ durationMs: 1000, sampleRate: 16_000, seed: 7 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items[0]).toMatchObject({ type: 'partial', text: 'ask not.' });
    expect(items.filter((e) => e.type === 'final').map((e) => [e.text, e.startMs])).toEqual([
      ['ask not what your country can do', 0],
    ]);
    const heard = concat(cartesia.sockets[0]!.frames.flatMap((f) => (f.type === 'binary' ? [f.data] : [])));
    expect(sameBytes(heard, pcm)).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['x', 'failed'],
      ['sonic', 'success'],
    ]);
  });

  it('issue 7: SageMaker STT ModelStreamError after a partial -> the backup hears all the audio; one final', async () => {
    const emulator = await emulate({
      whisper: sageMakerSttEndpoint({
        transcript: 'table for two',
        partials: true,
        script: { errorEventAfterChunks: 1 },
      }),
    });
    const { r, backup } = await replayRoute(
      {
        kind: 'sagemaker',
        ...AWS,
        endpointUrl: emulator.url,
        endpointName: 'whisper',
        stt: { payload: 'wav' },
      },
      'table for two',
    );
    const pcm = syntheticVoiceBytes({ durationMs: 600, sampleRate: 16_000, seed: 8 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K, interim: true });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items[0]).toMatchObject({ type: 'partial', text: 'table' });
    expect(finals(items)).toEqual([['table for two', 0, 600]]);
    expect(sameBytes(await uploadedPcm(backup.requests[0]), pcm)).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['x', 'failed'],
      ['backup', 'success'],
    ]);
  });
});
