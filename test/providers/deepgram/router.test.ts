import { afterEach, describe, expect, it } from 'vitest';
import { readWav } from '../../../src/audio/index.js';
import { ProviderError } from '../../../src/errors/index.js';
import { createRouter } from '../../../src/routing/router.js';
import type { DeepgramListenScript } from '../../../src/testing/deepgram/index.js';
import {
  createDeepgramMock,
  createOpenAiCompatibleMock,
  MOCK_API_KEY,
  type MockServer,
  mockDeepgramSpeech,
  type RecordedFile,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { expectSameBytes } from '../../testing/helpers.js';
import { collect, concat, KEY, pieces } from './helpers.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve<T extends Parameters<typeof startMockServer>[0]['provider']>(provider: T) {
  const server = await startMockServer({ provider });
  servers.push(server);
  return server;
}

const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };

/**
 * A Deepgram mock whose listen socket follows `listen`, and an OpenAI-compatible backup, both
 * served; a router whose `stt` route is [dg (nova-3), oa (whisper-1)] by priority, without a
 * first-chunk deadline.
 */
async function sttWithBackup(listen: DeepgramListenScript, key = KEY) {
  const deepgram = createDeepgramMock({ apiKey: key, inactivityTimeoutMs: 0, script: { listen } });
  const openai = createOpenAiCompatibleMock();
  const [dg, oa] = [await serve(deepgram), await serve(openai)];
  const router = createRouter({
    providers: {
      dg: { kind: 'deepgram', baseUrl: dg.url, apiKey: key, stt: { model: 'nova-3' } },
      oa: { kind: 'openai-compatible', baseUrl: `${oa.url}/v1`, stt: { model: 'whisper-1' } },
    },
    routes: { stt: { providers: ['dg', 'oa'], strategy: 'priority', firstChunkTimeoutMs: false } },
  });
  return { deepgram, openai, router };
}

/** An STT call through `router` of 2 s of synthetic speech at 16 kHz, sent in pieces of `pieceBytes`. */
function twoSeconds(router: ReturnType<typeof createRouter>, pieceBytes: number) {
  const pcm = syntheticAudio({ durationMs: 2000, format: PCM16K });
  async function* audio() {
    yield* pieces(pcm, pieceBytes);
  }
  return { pcm, stream: router.stt({ audio: audio(), format: PCM16K }) };
}

describe('Deepgram through createRouter', () => {
  it('stt: Deepgram closes 1011 before any transcript -> the OpenAI-compatible provider hears the whole audio', async () => {
    const { deepgram, openai, router } = await sttWithBackup({
      closeAfterChunks: 0,
      closeCode: 1011,
      closeReason: 'NET-0000 upstream unavailable',
    });
    try {
      // 2 s: the mock's first final ('Hello from the mock.') is due at 1600 ms; it closes instead.
      const { pcm, stream } = twoSeconds(router, 3001);
      const events = await collect(stream);
      expect(events).toEqual([
        { type: 'final', text: 'This is a mock transcript.', startMs: 0, endMs: 2000 },
      ]);
      const result = await stream.result;
      expect(result.provider).toBe('oa');
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['dg', 'failed'],
        ['oa', 'success'],
      ]);
      const failure = result.attempts[0]!.error as ProviderError;
      expect(ProviderError.isInstance(failure)).toBe(true);
      expect([failure.status, failure.retryable, failure.partialOutput]).toEqual([1011, true, false]);
      expect(failure.message).not.toContain(KEY);
      // Deepgram got the audio as it came (its own format, no conversion)...
      const session = deepgram.sessions[0]!;
      expect(session.query).toMatchObject({ encoding: 'linear16', sample_rate: '16000' });
      expect(session.close).toMatchObject({ code: 1011, by: 'server' });
      // ...and the fallback heard all of it, from the start.
      const file = openai.requests[0]!.form!.file as RecordedFile;
      const wav = readWav(
        (async function* () {
          yield file.bytes;
        })(),
      );
      const parts: Uint8Array[] = [];
      for await (const data of wav.data) parts.push(data);
      expectSameBytes(concat(parts), pcm);
    } finally {
      await router.close();
    }
  });

  it("the mock's own words in a close reason are not taken for pieces of MOCK_API_KEY", async () => {
    const { router } = await sttWithBackup({ closeAfterChunks: 0 }, MOCK_API_KEY);
    try {
      const { stream } = twoSeconds(router, 3200);
      await collect(stream);
      const failure = (await stream.result).attempts[0]!.error as ProviderError;
      expect(failure.message).toBe(
        "Provider 'dg' closed the WebSocket with code 1011 (Internal Error): mock server: scripted close",
      );
    } finally {
      await router.close();
    }
  });

  it('C18 (STT): Deepgram closes 1008 "invalid api key" before any transcript -> not retryable, the next provider serves', async () => {
    const { router } = await sttWithBackup({
      closeAfterChunks: 0,
      closeCode: 1008,
      closeReason: 'invalid api key',
    });
    try {
      const { stream } = twoSeconds(router, 3200);
      expect((await collect(stream)).map((e) => e.text)).toEqual(['This is a mock transcript.']);
      const result = await stream.result;
      expect(result.provider).toBe('oa');
      expect(result.attempts[0]!.error).toMatchObject({ status: 1008, retryable: false, isAuthError: true });
    } finally {
      await router.close();
    }
  });

  it('stt: Deepgram serves a routed transcription, finals only, in the caller format (mu-law 8 kHz, no conversion)', async () => {
    const deepgram = createDeepgramMock({
      apiKey: KEY,
      inactivityTimeoutMs: 0,
      transcript: 'Call me back. Thanks.',
      wordMs: 250,
    });
    const dg = await serve(deepgram);
    const router = createRouter({
      providers: { dg: { kind: 'deepgram', baseUrl: dg.url, apiKey: KEY, stt: { smartFormat: true } } },
      routes: { stt: { providers: ['dg'] } },
    });
    try {
      const ulaw: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
      const bytes = syntheticAudio({ durationMs: 1250, format: ulaw });
      async function* audio() {
        yield* pieces(bytes, 160);
      }
      const events = await collect(router.stt({ audio: audio(), format: ulaw }));
      expect(events.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
        ['final', 'Call me back.', 0, 750],
        ['final', 'Thanks.', 750, 1000],
      ]);
      const session = deepgram.sessions[0]!;
      expect(Object.fromEntries(new URL(session.record.url).searchParams)).toEqual({
        model: 'nova-3',
        encoding: 'mulaw',
        sample_rate: '8000',
        channels: '1',
        interim_results: 'false',
        smart_format: 'true',
      });
      expectSameBytes(session.audio(), bytes);
    } finally {
      await router.close();
    }
  });

  it('tts: Deepgram serves mu-law 8 kHz natively (asked in the query) and the caller gets its bytes unchanged', async () => {
    const deepgram = createDeepgramMock({ apiKey: KEY });
    const dg = await serve(deepgram);
    const router = createRouter({
      providers: {
        dg: {
          kind: 'deepgram',
          baseUrl: dg.url,
          apiKey: KEY,
          tts: { voices: { agent: 'aura-2-thalia-en' } },
        },
      },
      routes: { tts: { providers: ['dg'] } },
    });
    try {
      const ulaw: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
      const chunks = await collect(
        router.tts({ text: 'Your table is booked.', voice: 'agent', format: ulaw }),
      );
      expectSameBytes(concat(chunks.map((c) => c.data)), mockDeepgramSpeech('Your table is booked.', ulaw));
      expect(chunks.every((c) => c.format.encoding === 'mulaw' && c.format.sampleRate === 8000)).toBe(true);
      expect(new URL(deepgram.requests[0]!.url).search).toBe(
        '?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000&container=none',
      );
    } finally {
      await router.close();
    }
  });

  it('tts: Deepgram answers 429 before any audio -> the OpenAI-compatible provider serves, in the caller format', async () => {
    const deepgram = createDeepgramMock({
      apiKey: KEY,
      script: { speak: { failTimes: 1, failStatus: 429, retryAfter: '1' } },
    });
    const openai = createOpenAiCompatibleMock();
    const [dg, oa] = [await serve(deepgram), await serve(openai)];
    const router = createRouter({
      providers: {
        dg: {
          kind: 'deepgram',
          baseUrl: dg.url,
          apiKey: KEY,
          tts: { voices: { agent: 'aura-2-thalia-en' } },
        },
        oa: {
          kind: 'openai-compatible',
          baseUrl: `${oa.url}/v1`,
          tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
        },
      },
      routes: { tts: { providers: ['dg', 'oa'], strategy: 'priority' } },
    });
    try {
      const want: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 };
      const stream = router.tts({ text: 'Hi', voice: 'agent', format: want });
      const chunks = await collect(stream);
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.every((c) => c.format.sampleRate === 24000 && c.format.encoding === 'pcm_s16le')).toBe(
        true,
      );
      const result = await stream.result;
      expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['dg', 'failed'],
        ['oa', 'success'],
      ]);
      expect(result.attempts[0]!.error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1000 });
    } finally {
      await router.close();
    }
  });
});
