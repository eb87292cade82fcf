import { expect, it } from 'vitest';
import { createVoxroute, RequestError } from '../../src/ai-sdk/index.js';
import { encodeWav } from '../../src/index.js';
import { mockSpeechPcm } from '../../src/testing/index.js';
import { ALWAYS_503, describeAiSdk, twoProviders } from './helpers.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const TEXT = 'Your table is booked.';

describeAiSdk('voxroute/ai-sdk: speechModel with generateSpeech from the real ai package', () => {
  it('defaults to a WAV file of the served audio, labelled audio/wav, after falling back from a 503', async () => {
    const { generateSpeech } = await import('ai');
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 });
    const { audio, providerMetadata } = await generateSpeech({
      model: createVoxroute(router).speechModel('agent'),
      text: TEXT,
    });
    expect(audio.mediaType).toBe('audio/wav');
    expect(Buffer.from(audio.uint8Array).equals(Buffer.from(encodeWav(PCM24K, mockSpeechPcm(TEXT))))).toBe(
      true,
    );
    expect(providerMetadata.voxroute).toMatchObject({
      provider: 'b',
      encoding: 'pcm_s16le',
      sampleRate: 24_000,
      container: 'wav',
    });
    expect([a.calls('speech'), b.calls('speech')]).toEqual([1, 1]);
    expect(b.requests[0]!.body).toMatchObject({ input: TEXT, voice: 'af_heart' });
  });

  it('a per-call voice overrides the model voice; outputFormat pcm gives the raw samples at the asked rate', async () => {
    const { generateSpeech } = await import('ai');
    const { router, a } = await twoProviders();
    const { audio, providerMetadata } = await generateSpeech({
      model: createVoxroute(router).speechModel('agent'),
      text: TEXT,
      voice: 'narrator',
      outputFormat: 'pcm',
      providerOptions: { voxroute: { sampleRate: 24_000 } },
    });
    expect(a.requests[0]!.body).toMatchObject({ voice: 'am_onyx' });
    expect(Buffer.from(audio.uint8Array).equals(Buffer.from(mockSpeechPcm(TEXT)))).toBe(true);
    expect(providerMetadata.voxroute).toMatchObject({ provider: 'a', container: 'pcm', sampleRate: 24_000 });
  });

  it('resamples to the sample rate given in provider options (WAV header says 16 kHz)', async () => {
    const { generateSpeech } = await import('ai');
    const { router } = await twoProviders();
    const { audio } = await generateSpeech({
      model: createVoxroute(router).speechModel('agent', { route: 'tts-b' }),
      text: TEXT,
      providerOptions: { voxroute: { sampleRate: 16_000 } },
    });
    const view = new DataView(audio.uint8Array.buffer, audio.uint8Array.byteOffset);
    expect(view.getUint32(24, true)).toBe(16_000);
    // 21 characters x 60 ms = 1260 ms: 20160 samples at 16 kHz, 2 bytes each, after a 44-byte header.
    expect(audio.uint8Array.byteLength).toBe(44 + 20_160 * 2);
  });

  it('an output format voxroute cannot write (mp3) is refused before any provider is called', async () => {
    const { generateSpeech } = await import('ai');
    const { router, a, b } = await twoProviders();
    const error = await generateSpeech({
      model: createVoxroute(router).speechModel('agent'),
      text: TEXT,
      outputFormat: 'mp3',
    }).catch((e: unknown) => e);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('outputFormat');
    expect([a.calls('speech'), b.calls('speech')]).toEqual([0, 0]);
  });
});
