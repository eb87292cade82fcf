import type { ResolvedProviderConfig } from '../config/index.js';
import { createAnthropicAdapter } from './anthropic/index.js';
import { cartesiaAdapterFromConfig } from './cartesia/from-config.js';
import { deepgramAdapterFromConfig } from './deepgram/index.js';
import { elevenLabsAdapterFromConfig } from './elevenlabs/index.js';
import { createOpenAiAdapter } from './openai/index.js';
import { sageMakerAdapterFromConfig } from './sagemaker/from-config.js';
import type { ProviderAdapter } from './types.js';

/**
 * Builds the adapter of one configured provider, by its `kind`. Only wire settings reach the
 * adapter: logical voice and model maps stay with the router.
 */
export function createAdapter(name: string, config: ResolvedProviderConfig): ProviderAdapter {
  switch (config.kind) {
    case 'cartesia':
      return cartesiaAdapterFromConfig(name, config);
    case 'anthropic':
      return createAnthropicAdapter({
        name,
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        authHeader: config.authHeader,
        anthropicVersion: config.anthropicVersion,
        headers: config.headers,
        ...(config.chat ? { chat: { maxTokens: config.chat.maxTokens } } : {}),
      });
    case 'deepgram':
      return deepgramAdapterFromConfig(name, config);
    case 'elevenlabs':
      return elevenLabsAdapterFromConfig(name, config);
    case 'sagemaker':
      return sageMakerAdapterFromConfig(name, config);
    case 'openai':
    case 'openai-compatible': {
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
  }
}
