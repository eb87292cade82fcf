import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/index.js';
import type { AudioChunk } from '../../../src/index.js';
import {
  createCartesiaMock,
  createDeepgramMock,
  createElevenLabsMock,
  createOpenAiCompatibleMock,
  type MockProvider,
  mockCartesiaAudio,
  mockDeepgramSpeech,
  mockElevenLabsAudio,
  mockSpeechPcm,
  type RecordedRequest,
  type SageMakerScript,
  sageMakerTtsEndpoint,
} from '../../../src/testing/index.js';
import {
  AWS,
  drain,
  emulate,
  outcomes,
  PCM24K,
  router,
  SAME,
  sameBytes,
  serve,
  splitAtSwitch,
} from './helpers.js';

const SENTENCES = ['Hello there, friend. ', 'How are you today? ', 'Fine, thanks.'];
const TEXT = SENTENCES.join('');
const SPOKEN = SENTENCES.map((s) => s.trim());
const CHUNK = 4800;

/** A TTS provider kind under test: its mock failing on call 2 after `k` chunks, as a provider config. */
interface Kind {
  name: string;
  /** Starts the mock; returns the provider config and the texts it was asked to speak. */
  start(k: number): Promise<{ config: ProviderConfig; spoken(): string[] }>;
  /** The mock's audio for `text`, in PCM s16le 24 kHz (the caller's format here). */
  audio(text: string): Uint8Array;
}

const bodyText = (field: string) => (requests: RecordedRequest[]) =>
  requests.map((r) => (r.body as Record<string, unknown>)[field] as string);

/**
 * A kind served by its testing-kit mock: `mock(k)` makes it fail on call 2 after `k` chunks,
 * `config(url)` is its provider config at the mock's base URL, and the mock's recorded request
 * bodies say in `field` what it was asked to speak.
 */
function mockKind(
  name: string,
  mock: (k: number) => MockProvider,
  config: (url: string) => ProviderConfig,
  field: string,
  audio: Kind['audio'],
): Kind {
  return {
    name,
    async start(k) {
      const provider = mock(k);
      const url = await serve(provider);
      return { config: config(url), spoken: () => bodyText(field)(provider.requests) };
    },
    audio,
  };
}

/** A SageMaker endpoint of codec `payload` on the emulator, failing on call 2 as `fault(k)` says. */
function sageMakerKind(
  name: string,
  payload: 'raw-pcm' | 'cartesia',
  fault: (k: number) => SageMakerScript,
  field: string,
): Kind {
  return {
    name,
    async start(k) {
      const emulator = await emulate({ sonic: sageMakerTtsEndpoint({ payload, script: [{}, fault(k)] }) });
      return {
        config: {
          kind: 'sagemaker',
          ...AWS,
          endpointUrl: emulator.url,
          endpointName: 'sonic',
          tts: { payload, voices: { agent: 'v' } },
        },
        spoken: () => bodyText(field)(emulator.requests),
      };
    },
    audio: (text) => mockSpeechPcm(text),
  };
}

const KINDS: Kind[] = [
  mockKind(
    'openai-compatible (/audio/speech)',
    (k) => createOpenAiCompatibleMock({ script: { speech: [{}, { resetAfterChunks: k }] } }),
    (url) => ({ kind: 'openai-compatible', baseUrl: `${url}/v1`, tts: { voices: { agent: 'alloy' } } }),
    'input',
    (text) => mockSpeechPcm(text),
  ),
  mockKind(
    'cartesia (/tts/bytes)',
    (k) => createCartesiaMock({ script: { bytes: [{}, { resetAfterChunks: k }] } }),
    (url) => ({
      kind: 'cartesia',
      baseUrl: url,
      apiKey: 'c',
      tts: { voices: { agent: 'c' }, transport: 'bytes' },
    }),
    'transcript',
    (text) => mockCartesiaAudio(text, PCM24K),
  ),
  mockKind(
    'elevenlabs (HTTP stream)',
    (k) => createElevenLabsMock({ script: { stream: [{}, { resetAfterChunks: k }] } }),
    (url) => ({
      kind: 'elevenlabs',
      baseUrl: url,
      apiKey: 'el',
      tts: { voices: { agent: 'el' }, transport: 'http' },
    }),
    'text',
    (text) => mockElevenLabsAudio(text, PCM24K),
  ),
  mockKind(
    'deepgram (/v1/speak)',
    (k) => createDeepgramMock({ script: { speak: [{}, { resetAfterChunks: k }] } }),
    (url) => ({
      kind: 'deepgram',
      baseUrl: url,
      apiKey: 'dg',
      tts: { voices: { agent: 'aura-2-thalia-en' } },
    }),
    'text',
    (text) => mockDeepgramSpeech(text, PCM24K),
  ),
  sageMakerKind(
    'sagemaker (raw-pcm codec, ModelStreamError)',
    'raw-pcm',
    (k) => ({ errorEventAfterChunks: k }),
    'text',
  ),
  sageMakerKind(
    'sagemaker (cartesia codec, connection reset)',
    'cartesia',
    (k) => ({ resetAfterChunks: k }),
    'transcript',
  ),
];

describe("issue 7: tts midStream 'resume' across provider kinds (X fails mid sentence 2 -> OpenAI-compatible backup)", () => {
  for (const kind of KINDS) {
    for (const k of [1, 2]) {
      it(`issue 7: ${kind.name} fails after ${k} chunk(s) of sentence 2: every sentence heard once, in PCM 24 kHz, one discontinuity, the backup keeps sentence 3`, async () => {
        const x = await kind.start(k);
        const backup = createOpenAiCompatibleMock();
        const backupUrl = await serve(backup);
        const r = router({
          providers: {
            x: x.config,
            backup: {
              kind: 'openai-compatible',
              baseUrl: `${backupUrl}/v1`,
              tts: { voices: { agent: 'af' } },
            },
          },
          routes: { tts: { providers: ['x', 'backup'], strategy: 'priority', midStream: 'resume' } },
        });
        const stream = r.tts({ text: TEXT, voice: 'agent', format: PCM24K });
        const { items, error } = await drain<AudioChunk>(stream);
        expect(error).toBeUndefined();
        const { before, flagged } = splitAtSwitch(items);
        // One switch: X -> backup at sentence 2; the backup keeps sentence 3 (X, which failed in
        // this call, is not asked first again).
        expect(flagged).toHaveLength(1);
        const [s1, s2, s3] = SPOKEN as [string, string, string];
        // Before the switch: sentence 1 whole from X, then the k chunks of sentence 2 X sent.
        const fromX = Buffer.concat([kind.audio(s1), kind.audio(s2).subarray(0, CHUNK * k)]);
        expect(sameBytes(before, fromX)).toEqual(SAME);
        const bytes = (from: number, to?: number) => Buffer.concat(items.slice(from, to).map((c) => c.data));
        // The backup speaks sentence 2, whole, then sentence 3.
        expect(sameBytes(bytes(flagged[0]!), Buffer.concat([mockSpeechPcm(s2), mockSpeechPcm(s3)]))).toEqual(
          SAME,
        );
        for (const chunk of items)
          expect(chunk.format).toMatchObject({ encoding: 'pcm_s16le', sampleRate: 24_000 });
        // One request per sentence, text trimmed. Sentence 3 may have been requested of X as
        // look-ahead (when sentence 2's first byte arrived) and cancelled by the failure: never
        // heard from that request, and not asked of X again.
        const spoken = x.spoken();
        expect(spoken.slice(0, 2)).toEqual([s1, s2]);
        expect(spoken.slice(2).every((t) => t === s3)).toBe(true);
        expect([0, 1]).toContain(spoken.length - 2);
        expect(backup.requests.map((q) => (q.body as { input: string }).input)).toEqual([s2, s3]);
        const result = await stream.result;
        expect(result.provider).toBe('backup');
        expect(outcomes(result)).toEqual([
          ['x', 'failed'],
          ['backup', 'success'],
        ]);
      });
    }
  }
});
