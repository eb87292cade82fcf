import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllProvidersFailedError, createRouter, type Router, type RouterConfig } from '../../src/index.js';
import {
  DEFAULT_CHAT_REPLY,
  DEFAULT_TRANSCRIPT,
  type MockProviders,
  mockCartesiaAudio,
  mockSpeechPcm,
  startMockProviders,
  syntheticAudio,
} from '../../src/testing/index.js';
import type { AudioFormat } from '../../src/types/audio.js';
import { concatData, collect as drain } from '../helpers/index.js';

const PCM24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
const TEXT = 'Your table is booked.';

const config: RouterConfig = {
  providers: {
    oa: {
      kind: 'openai',
      apiKey: { env: 'OPENAI_API_KEY' },
      chat: { models: { fast: 'gpt-4o-mini' } },
      tts: { model: 'gpt-4o-mini-tts', voices: { agent: 'alloy' } },
      stt: { model: 'gpt-4o-transcribe' },
    },
    claude: {
      kind: 'anthropic',
      apiKey: { env: 'ANTHROPIC_API_KEY' },
      chat: { models: { fast: 'claude-haiku-4-5' } },
    },
    sonic: {
      kind: 'cartesia',
      apiKey: { env: 'CARTESIA_API_KEY' },
      tts: { model: 'sonic-3', voices: { agent: 'cartesia-voice-1' }, transport: 'websocket' },
    },
    dg: { kind: 'deepgram', apiKey: { env: 'DEEPGRAM_API_KEY' }, stt: { model: 'nova-3' } },
    sm: {
      kind: 'sagemaker',
      region: 'us-east-1',
      endpointName: 'llm',
      chat: { models: { fast: 'default' }, payload: 'openai-chat' },
    },
  },
  routes: {
    chat: { providers: ['oa'] },
    tts: { providers: ['oa'] },
    stt: { providers: ['oa'] },
    claude: { capability: 'chat', providers: ['claude'] },
    sonic: { capability: 'tts', providers: ['sonic'] },
    dg: { capability: 'stt', providers: ['dg'] },
    sm: { capability: 'chat', providers: ['sm'] },
  },
};

let started: MockProviders;
let router: Router;
beforeAll(async () => {
  started = await startMockProviders(config, { tls: true });
  router = createRouter(started.config, { ca: started.ca! });
});
afterAll(async () => {
  await router?.close();
  await started?.close();
});

const finals = (events: { type: string; text?: string }[]) =>
  events
    .filter((e) => e.type === 'final')
    .map((e) => e.text)
    .join(' ');
const deltas = (events: { type: string; text?: string }[]) =>
  events
    .filter((e) => e.type === 'text-delta')
    .map((e) => e.text)
    .join('');

describe('startMockProviders(config, { tls: true })', () => {
  it('serves https:// (so wss://) with one self-signed certificate returned as ca; SageMaker stays http://', () => {
    const providers = started.config.providers as Record<string, Record<string, unknown>>;
    for (const name of ['oa', 'claude', 'sonic', 'dg'])
      expect(started.mocks[name]!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(providers.oa!.baseUrl).toBe(`${started.mocks.oa!.url}/v1`);
    expect(providers.sonic!.baseUrl).toBe(started.mocks.sonic!.url);
    expect(providers.sm!.endpointUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(started.ca).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n[^-]+-----END CERTIFICATE-----\r?\n?$/);
  });

  it('tts over https (OpenAI) and wss (Cartesia) through createRouter(config, { ca }): exact bytes', async () => {
    const oa = concatData(await drain(router.tts({ text: TEXT, voice: 'agent', format: PCM24K })));
    expect(Buffer.from(oa).equals(Buffer.from(mockSpeechPcm(TEXT)))).toBe(true);
    const sonic = concatData(
      await drain(router.tts({ text: TEXT, voice: 'agent', format: PCM24K, route: 'sonic' })),
    );
    expect(Buffer.from(sonic).equals(Buffer.from(mockCartesiaAudio(TEXT, PCM24K)))).toBe(true);
    expect(started.mocks.oa!.requests.at(-1)!.url).toBe(`${started.mocks.oa!.url}/v1/audio/speech`);
    // The WebSocket upgrade reached the TLS server (its record shows the https origin).
    const upgrade = started.mocks.sonic!.requests.at(-1)!;
    expect([upgrade.url, upgrade.headers.upgrade]).toEqual([
      `${started.mocks.sonic!.url}/tts/websocket`,
      'websocket',
    ]);
  });

  it('stt over https (OpenAI) and wss (Deepgram), and chat over https (OpenAI, Anthropic): exact text', async () => {
    const pcm = syntheticAudio({ durationMs: 2000, format: PCM16K });
    async function* audio() {
      yield pcm;
    }
    expect(finals(await drain(router.stt({ audio: audio(), format: PCM16K })))).toBe(DEFAULT_TRANSCRIPT);
    expect(finals(await drain(router.stt({ audio: audio(), format: PCM16K, route: 'dg' })))).toBe(
      'hello from the mock your',
    );
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    expect(deltas(await drain(router.chat({ messages, model: 'fast' })))).toBe(DEFAULT_CHAT_REPLY);
    expect(deltas(await drain(router.chat({ messages, model: 'fast', route: 'claude' })))).toBe(
      DEFAULT_CHAT_REPLY,
    );
    expect(deltas(await drain(router.chat({ messages, model: 'fast', route: 'sm' })))).toBe(
      DEFAULT_CHAT_REPLY,
    );
  });

  it('a router not given the ca refuses the self-signed certificate: no request reaches the mock', async () => {
    const untrusting = createRouter(started.config);
    const before = started.mocks.oa!.requests.length;
    try {
      const error = await drain(untrusting.tts({ text: TEXT, voice: 'agent', format: PCM24K })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const attempts = (error as AllProvidersFailedError).attempts;
      expect(attempts.map((a) => a.provider)).toEqual(['oa']);
      expect(String((attempts[0]!.error as Error).message)).toContain('self-signed certificate');
      expect(started.mocks.oa!.requests.length).toBe(before);
    } finally {
      await untrusting.close();
    }
  });
});
