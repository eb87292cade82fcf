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
    ...(config.chat ? { chat: continuesIn(config.chat) ? { continueFinalMessage: true } : {} } : {}),
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

/** True when a chat section (of kind `openai-compatible`: the only one with the field) sets `continueFinalMessage`. */
function continuesIn(chat: object): boolean {
  return 'continueFinalMessage' in chat && chat.continueFinalMessage === true;
}
