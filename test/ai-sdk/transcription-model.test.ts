import { expect, it } from 'vitest';
import { createVoxroute, RequestError } from '../../src/ai-sdk/index.js';
import { encodeWav } from '../../src/index.js';
import { type RecordedFile, syntheticVoiceBytes } from '../../src/testing/index.js';
import { ALWAYS_503, describeAiSdk, twoProviders } from './helpers.js';

const PCM16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 1.5 s of the synthetic voice at 16 kHz: 48 000 bytes. */
const VOICE = syntheticVoiceBytes({ durationMs: 1500, sampleRate: 16_000 });

/** The audio file the mock received on its `call`-th transcription request. */
function uploaded(mock: Awaited<ReturnType<typeof twoProviders>>['a'], call = 0): RecordedFile {
  return mock.requests.filter((r) => r.endpoint === 'transcription')[call]!.form!.file as RecordedFile;
}

describeAiSdk('voxroute/ai-sdk: transcriptionModel with transcribe from the real ai package', () => {
  it('transcribes a WAV file on the stt route, falling back from a 503; the provider gets the same samples', async () => {
    const { transcribe } = await import('ai');
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { transcript: 'Table for two.' });
    const result = await transcribe({
      model: createVoxroute(router).transcriptionModel(),
      audio: encodeWav(PCM16K, VOICE),
    });
    expect(result.text).toBe('Table for two.');
    expect(result.durationInSeconds).toBe(1.5);
    expect(result.segments.map((s) => s.text)).toEqual(['Table for two.']);
    expect(result.providerMetadata.voxroute).toMatchObject({ provider: 'b' });
    expect([a.calls('transcription'), b.calls('transcription')]).toEqual([1, 1]);
    const file = uploaded(b);
    expect(Buffer.from(file.bytes.subarray(44)).equals(Buffer.from(VOICE))).toBe(true);
  });

  it('takes raw PCM when its format is in provider options, on the route named by the second argument', async () => {
    const { transcribe } = await import('ai');
    const { router, a, b } = await twoProviders({ transcript: 'From a.' }, { transcript: 'From b.' });
    const result = await transcribe({
      model: createVoxroute(router).transcriptionModel('stt', { route: 'stt-b' }),
      audio: VOICE,
      providerOptions: { voxroute: { sampleRate: 16_000, encoding: 'pcm_s16le' } },
    });
    expect(result.text).toBe('From b.');
    expect([a.calls('transcription'), b.calls('transcription')]).toEqual([0, 1]);
    expect(Buffer.from(uploaded(b).bytes.subarray(44)).equals(Buffer.from(VOICE))).toBe(true);
  });

  it('raw audio with no format is refused with RequestError before any provider is called', async () => {
    const { transcribe } = await import('ai');
    const { router, a, b } = await twoProviders();
    const error = await transcribe({
      model: createVoxroute(router).transcriptionModel(),
      audio: VOICE,
    }).catch((e: unknown) => e);
    expect(RequestError.isInstance(error)).toBe(true);
    expect((error as RequestError).field).toBe('audio');
    const bad = await transcribe({
      model: createVoxroute(router).transcriptionModel(),
      audio: VOICE,
      providerOptions: { voxroute: { sampleRate: 16_000, encoding: 'mp3' } },
    }).catch((e: unknown) => e);
    expect((bad as RequestError).field).toBe('providerOptions.voxroute.encoding');
    expect([a.calls('transcription'), b.calls('transcription')]).toEqual([0, 0]);
  });
});
