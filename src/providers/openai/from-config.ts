import type { ProviderAdapter } from '../types.js';
import { createOpenAiAdapter } from './adapter.js';
import type { ResolvedOpenAIProviderConfig } from './config.js';

/**
 * The adapter of a configured provider of kind `openai` or `openai-compatible`: only wire
 * settings are passed on (the logical voice and model maps stay with the router). Throws
 * ConfigError as {@link createOpenAiAdapter} does.
 */
export function openAiAdapterFromConfig(name: string, config: ResolvedOpenAIProviderConfig): ProviderAdapter {
  const { tts, stt } = config;
  return createOpenAiAdapter({
    name,
    kind: config.kind,
    baseUrl: config.baseUrl,
    headers: config.headers,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(config.chat ? { chat: {} } : {}),
    ...(tts
      ? {
          tts: {
            ...(tts.model !== undefined ? { model: tts.model } : {}),
            responseFormat: tts.responseFormat,
            streamFormat: tts.streamFormat,
            sampleRate: tts.sampleRate,
          },
        }
      : {}),
    ...(stt ? { stt: { model: stt.model, streaming: stt.streaming } } : {}),
  });
}
