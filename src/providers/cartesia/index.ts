export { type CartesiaAdapter, createCartesiaAdapter } from './adapter.js';
export type { ResolvedCartesiaConfig } from './config.js';
export { CARTESIA_STT_FORMATS, CARTESIA_TTS_FORMATS } from './formats.js';
export { cartesiaAdapterFromConfig } from './from-config.js';
export type {
  CartesiaAdapterOptions,
  CartesiaSttOptions,
  CartesiaTtsOptions,
  CartesiaTtsTransport,
} from './options.js';
export type { CartesiaTtsProvider } from './tts.js';
export type { CartesiaAudio, WordTiming } from './tts-events.js';
export type { CartesiaTtsRequest } from './tts-request.js';
