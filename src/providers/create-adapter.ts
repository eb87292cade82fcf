import type { Clock } from '../internal/clock.js';
import type { ResolvedAnthropicConfig } from './anthropic/config.js';
import { anthropicAdapterFromConfig } from './anthropic/from-config.js';
import type { ResolvedCartesiaConfig } from './cartesia/config.js';
import { cartesiaAdapterFromConfig } from './cartesia/from-config.js';
import type { ResolvedDeepgramConfig } from './deepgram/config.js';
import { deepgramAdapterFromConfig } from './deepgram/from-config.js';
import type { ResolvedElevenLabsConfig } from './elevenlabs/config.js';
import { elevenLabsAdapterFromConfig } from './elevenlabs/from-config.js';
import type { ResolvedOpenAIProviderConfig } from './openai/config.js';
import { openAiAdapterFromConfig } from './openai/from-config.js';
import type { ResolvedSageMakerConfig } from './sagemaker/config.js';
import { sageMakerAdapterFromConfig } from './sagemaker/from-config.js';
import type { ProviderAdapter } from './types.js';

/**
 * One resolved provider of any kind that has an adapter: the same union as the config's
 * ResolvedProviderConfig (src/config assembles the schemas of these same folders), written
 * here so that providers import nothing from config.
 */
export type AdapterConfig =
  | ResolvedOpenAIProviderConfig
  | ResolvedAnthropicConfig
  | ResolvedCartesiaConfig
  | ResolvedDeepgramConfig
  | ResolvedElevenLabsConfig
  | ResolvedSageMakerConfig;

/**
 * Builds the adapter of one configured provider, by its `kind`, with the `from-config` of
 * that kind's folder. Only wire settings reach the adapter: logical voice and model maps stay
 * with the router. `clock` (the router's) runs the deadlines adapters keep themselves
 * (Cartesia's and ElevenLabs' WebSocket TTS, SageMaker's streams).
 */
export function createAdapter(name: string, config: AdapterConfig, clock?: Clock): ProviderAdapter {
  switch (config.kind) {
    case 'cartesia':
      return cartesiaAdapterFromConfig(name, config, clock);
    case 'anthropic':
      return anthropicAdapterFromConfig(name, config);
    case 'deepgram':
      return deepgramAdapterFromConfig(name, config);
    case 'elevenlabs':
      return elevenLabsAdapterFromConfig(name, config, clock);
    case 'sagemaker':
      return sageMakerAdapterFromConfig(name, config, clock);
    case 'openai':
    case 'openai-compatible':
      return openAiAdapterFromConfig(name, config);
  }
}
