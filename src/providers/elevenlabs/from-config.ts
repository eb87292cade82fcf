import type { Clock } from '../../internal/clock.js';
import { createElevenLabsAdapter, type ElevenLabsAdapter } from './adapter.js';
import type { ResolvedElevenLabsConfig } from './config.js';
import type { ElevenLabsTtsOptions } from './options.js';

/**
 * The adapter of a provider of kind `elevenlabs` from its resolved config (defaults applied,
 * `apiKey` read from the environment). Only wire settings reach the adapter: the logical voice
 * map stays with the router; `clock` (the router's) runs its deadlines. Throws ConfigError as
 * {@link createElevenLabsAdapter} does.
 */
export function elevenLabsAdapterFromConfig(
  name: string,
  config: ResolvedElevenLabsConfig,
  clock?: Clock,
): ElevenLabsAdapter {
  const tts = config.tts;
  let ttsOptions: ElevenLabsTtsOptions | undefined;
  if (tts) {
    ttsOptions = {
      model: tts.model,
      transport: tts.transport,
      keepAliveIntervalMs: tts.keepAliveIntervalMs,
      ...(tts.optimizeStreamingLatency !== undefined
        ? { optimizeStreamingLatency: tts.optimizeStreamingLatency }
        : {}),
      ...(tts.chunkLengthSchedule !== undefined ? { chunkLengthSchedule: [...tts.chunkLengthSchedule] } : {}),
      ...(tts.voiceSettings !== undefined ? { voiceSettings: definedOnly(tts.voiceSettings) } : {}),
    };
  }
  return createElevenLabsAdapter({
    name,
    ...(clock ? { clock } : {}),
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    ...(ttsOptions ? { tts: ttsOptions } : {}),
  });
}

function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
