import type { Clock } from '../../internal/clock.js';
import { type CartesiaAdapter, createCartesiaAdapter } from './adapter.js';
import type { ResolvedCartesiaConfig } from './config.js';

/**
 * The Cartesia adapter of one configured provider (`createAdapter`'s case for kind
 * `cartesia`): wire settings only (`baseUrl`, `apiKey`, `version`, `headers`, `tts` without its
 * voice map, `stt`); logical voices stay with the router; `clock` (the router's) runs its
 * deadlines. Throws ConfigError for a bad `baseUrl`.
 */
export function cartesiaAdapterFromConfig(
  name: string,
  config: ResolvedCartesiaConfig,
  clock?: Clock,
): CartesiaAdapter {
  const { tts, stt } = config;
  return createCartesiaAdapter({
    name,
    ...(clock ? { clock } : {}),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    version: config.version,
    headers: config.headers,
    ...(tts
      ? {
          tts: {
            model: tts.model,
            transport: tts.transport,
            addTimestamps: tts.addTimestamps,
            keepWarmMs: tts.keepWarmMs,
            ...(tts.language !== undefined ? { language: tts.language } : {}),
            ...(tts.maxBufferDelayMs !== undefined ? { maxBufferDelayMs: tts.maxBufferDelayMs } : {}),
          },
        }
      : {}),
    ...(stt
      ? { stt: { model: stt.model, ...(stt.language !== undefined ? { language: stt.language } : {}) } }
      : {}),
  });
}
