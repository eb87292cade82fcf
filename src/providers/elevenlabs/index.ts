export { createElevenLabsAdapter, type ElevenLabsAdapter } from './adapter.js';
export { wordsFromAlignment } from './alignment.js';
export type { ResolvedElevenLabsConfig } from './config.js';
export {
  ELEVENLABS_PCM_RATES,
  elevenLabsOutputFormats,
  formatOfOutputName,
  outputFormatName,
} from './formats.js';
export { elevenLabsAdapterFromConfig } from './from-config.js';
export type {
  ElevenLabsAdapterOptions,
  ElevenLabsTtsOptions,
  ElevenLabsTtsTransport,
  ElevenLabsVoiceSettings,
} from './options.js';
export { DEFAULT_KEEP_ALIVE_MS } from './options.js';
export { TextChunker } from './text-chunker.js';
export type { ElevenLabsAudio, ElevenLabsTtsProvider, ElevenLabsTtsRequest, WordTiming } from './types.js';
