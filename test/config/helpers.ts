import type {
  ResolvedOpenAIProviderConfig,
  ResolvedProviderConfig,
  ResolvedRouteConfig,
} from '../../src/config/index.js';
import { ConfigError, type ConfigIssue } from '../../src/errors/config-error.js';

/**
 * A value tests reach into at any depth, to plant invalid values where the real types would
 * forbid them.
 */
// biome-ignore lint/suspicious/noExplicitAny: tests write deliberately ill-typed values at arbitrary depth.
export type Loose = any;

/** A valid config as a user writes it: a fresh object each call, so tests may mutate it. */
export function validConfig(): Record<string, Loose> {
  return {
    providers: {
      'ec2-a': {
        kind: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:8801/v1',
        chat: { models: { fast: 'voxroute-echo' } },
        tts: { model: 'espeak-ng', voices: { agent: 'en-us' }, responseFormat: 'wav' },
        stt: { model: 'pocketsphinx' },
      },
      openai: {
        kind: 'openai',
        apiKey: { env: 'OPENAI_API_KEY' },
        tts: { model: 'gpt-4o-mini-tts', voices: { agent: 'alloy' } },
      },
    },
    routes: {
      tts: { providers: ['ec2-a', 'openai'] },
      stt: { providers: ['ec2-a'], strategy: 'priority' },
    },
  };
}

/** Runs `fn`, which must throw a ConfigError, and returns that error. */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

/** Awaits `promise`, which must reject with a ConfigError, and returns that error. */
export async function rejectedConfigError(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, the promise resolved');
}

/** The paths of a ConfigError's issues, each joined with dots, in order. */
export function issuePaths(issues: ConfigIssue[]): string[] {
  return issues.map((issue) => issue.path.join('.'));
}

/** Narrows a resolved provider to the OpenAI kinds (the fixtures here use only those). */
export function asOpenAi(provider: ResolvedProviderConfig | undefined): ResolvedOpenAIProviderConfig {
  if (!provider || (provider.kind !== 'openai' && provider.kind !== 'openai-compatible')) {
    throw new Error(`expected an OpenAI provider, got ${provider?.kind}`);
  }
  return provider;
}

/**
 * A route as the config resolves it when it sets only `providers` (and what `set` names):
 * every built-in default written out, so a test fails when one changes.
 */
export function resolvedRoute(
  name: string,
  capability: ResolvedRouteConfig['capability'],
  providers: string[],
  set: Partial<ResolvedRouteConfig> = {},
): ResolvedRouteConfig {
  return {
    name,
    capability,
    providers,
    strategy: 'latency',
    firstChunkTimeoutMs: 'auto',
    idleTimeoutMs: 5000,
    totalTimeoutMs: undefined,
    connectTimeoutMs: 2000,
    midStream: 'error',
    ewmaDecayMs: 10000,
    weights: {},
    costs: {},
    costLatencyFactor: 1.5,
    inFlightWeight: 0,
    probeAfterMs: 30000,
    hedge: false,
    ...set,
  };
}

/** The resolved `tts` section of a provider that sets espeak-ng, voice agent -> en-us, WAV (the defaults filled in). */
export const RESOLVED_ESPEAK_TTS = {
  model: 'espeak-ng',
  voices: { agent: 'en-us' },
  responseFormat: 'wav',
  streamFormat: 'audio',
  sampleRate: 24000,
} as const;
