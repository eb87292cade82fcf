import { describe, expect, it } from 'vitest';
import { AllProvidersFailedError, createRouter } from '../../src/index.js';
import {
  DEFAULT_CHAT_REPLY,
  DEFAULT_TRANSCRIPT,
  mockCartesiaAudio,
  mockSpeechPcm,
  syntheticAudio,
} from '../../src/testing/index.js';
import { concatData, collect as drain } from '../helpers/index.js';
import { PCM16K, PCM24K, readmeConfig, TEXT, textOf, useMockProviders } from '../helpers/mock-providers.js';

// Cartesia TTS over its WebSocket, so that wss:// is exercised. Each route's connect deadline
// is long: a TLS handshake on a loaded 2-core machine (the suite runs files side by side) took
// over the default 2 s, and these tests are about what the mocks serve, not about deadlines.
const config = readmeConfig('websocket');
for (const route of Object.values(config.routes ?? {})) route.connectTimeoutMs = 30_000;
const kit = useMockProviders(config, { tls: true });
const finals = (events: { type: string; text?: string }[]) => textOf(events, 'final', ' ');
const deltas = (events: { type: string; text?: string }[]) => textOf(events, 'text-delta', '');

describe('startMockProviders(config, { tls: true })', () => {
  it('serves https:// (so wss://) with one self-signed certificate returned as ca; SageMaker stays http://', () => {
    const providers = kit.started.config.providers as Record<string, Record<string, unknown>>;
    for (const name of ['oa', 'claude', 'sonic', 'dg'])
      expect(kit.started.mocks[name]!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(providers.oa!.baseUrl).toBe(`${kit.started.mocks.oa!.url}/v1`);
    expect(providers.sonic!.baseUrl).toBe(kit.started.mocks.sonic!.url);
    expect(providers.sm!.endpointUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(kit.started.ca).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n[^-]+-----END CERTIFICATE-----\r?\n?$/);
  });

  it('tts over https (OpenAI) and wss (Cartesia) through createRouter(config, { ca }): exact bytes', async () => {
    const oa = concatData(await drain(kit.router.tts({ text: TEXT, voice: 'agent', format: PCM24K })));
    expect(Buffer.from(oa).equals(Buffer.from(mockSpeechPcm(TEXT)))).toBe(true);
    const sonic = concatData(
      await drain(kit.router.tts({ text: TEXT, voice: 'agent', format: PCM24K, route: 'sonic' })),
    );
    expect(Buffer.from(sonic).equals(Buffer.from(mockCartesiaAudio(TEXT, PCM24K)))).toBe(true);
    expect(kit.started.mocks.oa!.requests.at(-1)!.url).toBe(`${kit.started.mocks.oa!.url}/v1/audio/speech`);
    // The WebSocket upgrade reached the TLS server (its record shows the https origin).
    const upgrade = kit.started.mocks.sonic!.requests.at(-1)!;
    expect([upgrade.url, upgrade.headers.upgrade]).toEqual([
      `${kit.started.mocks.sonic!.url}/tts/websocket`,
      'websocket',
    ]);
  });

  it('stt over https (OpenAI) and wss (Deepgram), and chat over https (OpenAI, Anthropic): exact text', async () => {
    const pcm = syntheticAudio({ durationMs: 2000, format: PCM16K });
    async function* audio() {
      yield pcm;
    }
    expect(finals(await drain(kit.router.stt({ audio: audio(), format: PCM16K })))).toBe(DEFAULT_TRANSCRIPT);
    expect(finals(await drain(kit.router.stt({ audio: audio(), format: PCM16K, route: 'dg' })))).toBe(
      'hello from the mock your',
    );
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    expect(deltas(await drain(kit.router.chat({ messages, model: 'fast' })))).toBe(DEFAULT_CHAT_REPLY);
    expect(deltas(await drain(kit.router.chat({ messages, model: 'fast', route: 'claude' })))).toBe(
      DEFAULT_CHAT_REPLY,
    );
    expect(deltas(await drain(kit.router.chat({ messages, model: 'fast', route: 'sm' })))).toBe(
      DEFAULT_CHAT_REPLY,
    );
  });

  it('a router not given the ca refuses the self-signed certificate: no request reaches the mock', async () => {
    const untrusting = createRouter(kit.started.config);
    const before = kit.started.mocks.oa!.requests.length;
    try {
      const error = await drain(untrusting.tts({ text: TEXT, voice: 'agent', format: PCM24K })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const attempts = (error as AllProvidersFailedError).attempts;
      expect(attempts.map((a) => a.provider)).toEqual(['oa']);
      expect(String((attempts[0]!.error as Error).message)).toContain('self-signed certificate');
      expect(kit.started.mocks.oa!.requests.length).toBe(before);
    } finally {
      await untrusting.close();
    }
  });
});
