/**
 * A README-style config served by `startMockProviders`, for the tests of the testing kit (plain
 * and TLS). Not in ./index.ts: importing it loads the testing kit. `useMockProviders` registers
 * a beforeAll and an afterAll in the calling file.
 */
import { afterAll, beforeAll } from 'vitest';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import {
  type MockProviders,
  type StartMockProvidersOptions,
  startMockProviders,
} from '../../src/testing/index.js';
import type { AudioFormat } from '../../src/types/audio.js';

export const PCM24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
export const PCM16K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
/** What the TTS tests speak. */
export const TEXT = 'Your table is booked.';

/**
 * One OpenAI-compatible provider `a` serving every capability (chat model `fast`, voice `agent`,
 * STT), routed alone for chat, tts and stt: the config to hand to startMockProviders, which
 * replaces its unreachable `baseUrl`.
 */
export const ONE_PROVIDER_CONFIG = {
  providers: {
    a: {
      kind: 'openai-compatible' as const,
      baseUrl: 'http://127.0.0.1:1/v1',
      chat: { models: { fast: 'm' } },
      tts: { voices: { agent: 'v' } },
      stt: { model: 'w' },
    },
  },
  routes: { chat: { providers: ['a'] }, tts: { providers: ['a'] }, stt: { providers: ['a'] } },
};

/**
 * A README-style config: real hosts, keys from the environment. Providers, in this order: `oa`
 * (OpenAI: chat, TTS, STT), `claude` (Anthropic chat), `sonic` (Cartesia TTS and STT; TTS over
 * `cartesiaTransport`, default the provider's own), `dg` (Deepgram STT), `eleven` (ElevenLabs
 * TTS), `sm` (SageMaker chat). Routes `chat`, `tts`, `stt` call `oa`; the others are named after
 * their one provider.
 */
export function readmeConfig(cartesiaTransport?: 'websocket'): RouterConfig {
  return {
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
        tts: {
          model: 'sonic-3',
          voices: { agent: 'cartesia-voice-1' },
          ...(cartesiaTransport ? { transport: cartesiaTransport } : {}),
        },
        stt: { model: 'ink-whisper' },
      },
      dg: { kind: 'deepgram', apiKey: { env: 'DEEPGRAM_API_KEY' }, stt: { model: 'nova-3' } },
      eleven: {
        kind: 'elevenlabs',
        apiKey: { env: 'ELEVENLABS_API_KEY' },
        tts: { voices: { agent: 'voice-el' } },
      },
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
      sm: { capability: 'chat', providers: ['sm'] },
      sonic: { capability: 'tts', providers: ['sonic'] },
      eleven: { capability: 'tts', providers: ['eleven'] },
      dg: { capability: 'stt', providers: ['dg'] },
    },
  };
}

/**
 * Starts the mocks of `config` once for the file (beforeAll) and a router over them (given the
 * mocks' CA when `options.tls`); closes both after all its tests. Read `started` and `router`
 * inside the tests.
 */
export function useMockProviders(
  config: RouterConfig,
  options: StartMockProvidersOptions = {},
): { readonly started: MockProviders; readonly router: Router } {
  let started: MockProviders | undefined;
  let router: Router | undefined;
  beforeAll(async () => {
    started = await startMockProviders(config, options);
    router = started.ca ? createRouter(started.config, { ca: started.ca }) : createRouter(started.config);
  });
  afterAll(async () => {
    await router?.close();
    await started?.close();
  });
  return {
    get started() {
      return started!;
    },
    get router() {
      return router!;
    },
  };
}

/** The texts of the events of `type`, joined with `separator`. */
export function textOf(
  events: readonly { type: string; text?: string }[],
  type: 'final' | 'text-delta',
  separator: string,
): string {
  return events
    .filter((e) => e.type === type)
    .map((e) => e.text)
    .join(separator);
}

/**
 * {@link ONE_PROVIDER_CONFIG} served by startMockProviders (transcript `transcript`, a chat
 * reply of `deltas`) and a router on it; `requests` is the mock's request log. Close it with
 * `close()` (router, then mocks).
 */
export async function oneMockProviderRouter(
  transcript: string,
  deltas: string[],
): Promise<{ router: Router; requests: readonly unknown[]; close(): Promise<void> }> {
  const mocks = await startMockProviders(ONE_PROVIDER_CONFIG, {
    providers: { a: { transcript, chat: { deltas } } },
  });
  const router = createRouter(mocks.config);
  return {
    router,
    requests: mocks.mocks.a!.requests,
    close: async () => {
      await router.close();
      await mocks.close();
    },
  };
}
