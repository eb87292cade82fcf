import type { Clock } from '../internal/clock.js';
import type { ResolvedAnthropicConfig } from './anthropic/config.js';
import { ANTHROPIC_CONTINUES_ASSISTANT_MESSAGE } from './anthropic/options.js';
import type { ResolvedCartesiaConfig } from './cartesia/config.js';
import { cartesiaSttCapabilities } from './cartesia/formats.js';
import type { ResolvedDeepgramConfig } from './deepgram/config.js';
import { deepgramSttCapabilities } from './deepgram/formats.js';
import type { ResolvedElevenLabsConfig } from './elevenlabs/config.js';
import { lazyAdapter } from './lazy-adapter.js';
import { openAiContinuesAssistantMessage } from './openai/chat-continues.js';
import type { ResolvedOpenAIProviderConfig } from './openai/config.js';
import { openAiSttCapabilities } from './openai/transcription-formats.js';
import type { ResolvedSageMakerConfig } from './sagemaker/config.js';
import { sageMakerCodec } from './sagemaker/registry.js';
import { sageMakerSttCapabilities } from './sagemaker/stt-capabilities.js';
import type { ProviderAdapter, SttCapabilities } from './types.js';

/** The builders of every kind: adapters.ts, as a dynamic `import()` of it resolves. */
export type AdapterBuilders = typeof import('./adapters.js');

/** How {@link createAdapter} builds its adapter once the adapters' code is there. */
export interface CreateAdapterOptions {
  /**
   * Loads the builders of every kind (a dynamic `import()` of a module that exports them, once
   * per process: the router's loads its other background code with them).
   */
  load: () => Promise<AdapterBuilders>;
  /** The router's clock (see {@link createAdapter}). */
  clock?: Clock | undefined;
  /** Receives the built adapter (the router puts it in the stand-in's place). */
  loaded?: (adapter: ProviderAdapter) => void;
}

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
 * once, while the adapters' code (adapters.ts, through `options.load`) loads in the background,
 * so that importing voxroute compiles no provider's code. `options.loaded` receives the built
 * adapter (the router puts it in the stand-in's place). Only wire settings reach the adapter:
 * logical voice and model maps stay with the router. `options.clock` (the router's) runs the
 * deadlines adapters keep themselves (Cartesia's and ElevenLabs' WebSocket TTS, SageMaker's
 * streams, Deepgram's listen socket). The config was checked before (baseUrl, keys, SageMaker payload codecs), so building
 * the adapter does not fail on it.
 */
export function createAdapter(
  name: string,
  config: AdapterConfig,
  options: CreateAdapterOptions,
): ProviderAdapter {
  const { load: loadAdapters, clock, loaded } = options;
  const parts = {
    name,
    tts: 'tts' in config && config.tts !== undefined,
    chat: undefined,
    ...(loaded ? { loaded } : {}),
  };
  switch (config.kind) {
    case 'cartesia':
      return lazyAdapter({
        ...parts,
        stt: config.stt ? cartesiaSttCapabilities() : undefined,
        load: async () => (await loadAdapters()).cartesiaAdapterFromConfig(name, config, clock),
      });
    case 'anthropic':
      return lazyAdapter({
        ...parts,
        tts: false,
        chat: config.chat ? { continuesAssistantMessage: ANTHROPIC_CONTINUES_ASSISTANT_MESSAGE } : undefined,
        stt: undefined,
        load: async () => (await loadAdapters()).anthropicAdapterFromConfig(name, config),
      });
    case 'deepgram':
      return lazyAdapter({
        ...parts,
        stt: config.stt ? deepgramSttCapabilities() : undefined,
        load: async () => (await loadAdapters()).deepgramAdapterFromConfig(name, config, clock),
      });
    case 'elevenlabs':
      return lazyAdapter({
        ...parts,
        stt: undefined,
        load: async () => (await loadAdapters()).elevenLabsAdapterFromConfig(name, config, clock),
      });
    case 'sagemaker':
      return lazyAdapter({
        ...parts,
        chat: config.chat ? { continuesAssistantMessage: false } : undefined,
        stt: config.stt ? sageMakerSttCapabilitiesOf(config.stt) : undefined,
        load: async () => (await loadAdapters()).sageMakerAdapterFromConfig(name, config, clock),
      });
    case 'openai':
    case 'openai-compatible':
      return lazyAdapter({
        ...parts,
        chat: config.chat
          ? {
              continuesAssistantMessage: openAiContinuesAssistantMessage(
                config.kind,
                'continueFinalMessage' in config.chat ? config.chat.continueFinalMessage : undefined,
              ),
            }
          : undefined,
        stt: config.stt ? openAiSttCapabilities() : undefined,
        load: async () => (await loadAdapters()).openAiAdapterFromConfig(name, config),
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
