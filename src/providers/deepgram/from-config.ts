import type { Clock } from '../../internal/clock.js';
import type { ProviderAdapter } from '../types.js';
import { createDeepgramAdapter } from './adapter.js';
import type { ResolvedDeepgramConfig } from './config.js';

/**
 * The adapter of a configured `deepgram` provider: only wire settings are passed on (the
 * logical voice map stays with the router); `clock` (the router's) runs its keep-alive and
 * close-wait timers and times the audio it sends. See `createDeepgramAdapter`.
 */
export function deepgramAdapterFromConfig(
  name: string,
  config: ResolvedDeepgramConfig,
  clock?: Clock,
): ProviderAdapter {
  const { stt } = config;
  return createDeepgramAdapter({
    name,
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    ...(stt
      ? {
          stt: {
            model: stt.model,
            ...(stt.language !== undefined ? { language: stt.language } : {}),
            ...(stt.endpointingMs !== undefined ? { endpointingMs: stt.endpointingMs } : {}),
            ...(stt.utteranceEndMs !== undefined ? { utteranceEndMs: stt.utteranceEndMs } : {}),
            keepAliveIntervalMs: stt.keepAliveIntervalMs,
            ...(stt.smartFormat !== undefined ? { smartFormat: stt.smartFormat } : {}),
            auth: stt.auth,
          },
        }
      : {}),
    ...(config.tts ? { tts: {} } : {}),
    ...(clock ? { clock } : {}),
  });
}
