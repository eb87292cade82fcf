import type { Clock } from '../internal/clock.js';
import type { ResolvedAnthropicConfig } from './anthropic/config.js';
import type { ResolvedCartesiaConfig } from './cartesia/config.js';
import { cartesiaSttCapabilities } from './cartesia/formats.js';
import type { ResolvedDeepgramConfig } from './deepgram/config.js';
import { deepgramSttCapabilities } from './deepgram/formats.js';
import type { ResolvedElevenLabsConfig } from './elevenlabs/config.js';
import { lazyAdapter } from './lazy-adapter.js';
import type { ResolvedOpenAIProviderConfig } from './openai/config.js';
import { openAiSttCapabilities } from './openai/transcription-formats.js';
import type { ResolvedSageMakerConfig } from './sagemaker/config.js';
import { sageMakerCodec } from './sagemaker/registry.js';
import { sageMakerSttCapabilities } from './sagemaker/stt-capabilities.js';
import type { ProviderAdapter, SttCapabilities } from './types.js';

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
 * The adapter of one configured provider, by its `kind`: a stand-in ({@link lazyAdapter}) at
 * once, while the code of that kind's folder (its `from-config`) loads in the background, so
 * that importing voxroute compiles no provider's code and a router compiles only the kinds its
 * config names. `loaded` receives the built adapter (the router puts it in the stand-in's
 * place). Only wire settings reach the adapter: logical voice and model maps stay with the
 * router. `clock` (the router's) runs the deadlines adapters keep themselves (Cartesia's and
 * ElevenLabs' WebSocket TTS, SageMaker's streams). The config was checked before (baseUrl,
 * keys, SageMaker payload codecs), so building the adapter does not fail on it.
 */
export function createAdapter(
  name: string,
  config: AdapterConfig,
  clock?: Clock,
  loaded?: (adapter: ProviderAdapter) => void,
): ProviderAdapter {
  const parts = {
    name,
    tts: 'tts' in config && config.tts !== undefined,
    chat: false,
    ...(loaded ? { loaded } : {}),
  };
  switch (config.kind) {
    case 'cartesia':
      return lazyAdapter({
        ...parts,
        stt: config.stt ? cartesiaSttCapabilities() : undefined,
        load: async () =>
          (await import('./cartesia/from-config.js')).cartesiaAdapterFromConfig(name, config, clock),
      });
    case 'anthropic':
      return lazyAdapter({
        ...parts,
        tts: false,
        chat: config.chat !== undefined,
        stt: undefined,
        load: async () =>
          (await import('./anthropic/from-config.js')).anthropicAdapterFromConfig(name, config),
      });
    case 'deepgram':
      return lazyAdapter({
        ...parts,
        stt: config.stt ? deepgramSttCapabilities() : undefined,
        load: async () => (await import('./deepgram/from-config.js')).deepgramAdapterFromConfig(name, config),
      });
    case 'elevenlabs':
      return lazyAdapter({
        ...parts,
        stt: undefined,
        load: async () =>
          (await import('./elevenlabs/from-config.js')).elevenLabsAdapterFromConfig(name, config, clock),
      });
    case 'sagemaker':
      return lazyAdapter({
        ...parts,
        chat: config.chat !== undefined,
        stt: config.stt ? sageMakerSttCapabilitiesOf(config.stt) : undefined,
        load: async () =>
          (await import('./sagemaker/from-config.js')).sageMakerAdapterFromConfig(name, config, clock),
      });
    case 'openai':
    case 'openai-compatible':
      return lazyAdapter({
        ...parts,
        chat: config.chat !== undefined,
        stt: config.stt ? openAiSttCapabilities() : undefined,
        load: async () => (await import('./openai/from-config.js')).openAiAdapterFromConfig(name, config),
      });
  }
}

/** The STT capabilities of a SageMaker `stt` section, with its registered payload codec. */
function sageMakerSttCapabilitiesOf(stt: NonNullable<ResolvedSageMakerConfig['stt']>): SttCapabilities {
  const codec = sageMakerCodec('stt', stt.payload);
  // The config check has reported a payload with no codec; an adapter built without one fails its calls.
  return codec
    ? sageMakerSttCapabilities(codec, stt.sampleRate, stt.stream === 'bidirectional')
    : { inputFormats: [], streamingInput: false };
}
