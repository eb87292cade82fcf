import type { RouteConfig, RouterConfig } from '../../../src/index.js';

type ProviderConfig = RouterConfig['providers'][string];

/**
 * A config whose `tts` route is the provider under test (`name`: `primary`) alone, or, with a
 * `backupUrl`, followed by an OpenAI-compatible backup `b` there (voices `backupVoices`, default
 * `agent`: `alloy`); priority order, with the route options `route`.
 */
export function ttsRouteWithBackup(
  name: string,
  primary: ProviderConfig,
  backupUrl: string | undefined,
  route: Omit<RouteConfig, 'providers' | 'strategy'> = {},
  backupVoices: Record<string, string> = { agent: 'alloy' },
): RouterConfig {
  return {
    providers: {
      [name]: primary,
      ...(backupUrl
        ? {
            b: {
              kind: 'openai-compatible' as const,
              baseUrl: backupUrl,
              tts: { voices: backupVoices },
            },
          }
        : {}),
    },
    routes: { tts: { providers: backupUrl ? [name, 'b'] : [name], strategy: 'priority', ...route } },
  };
}
