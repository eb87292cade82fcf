export { createDeepgramAdapter } from './adapter.js';
export type { ResolvedDeepgramConfig } from './config.js';
export { DEEPGRAM_LISTEN_INPUT_FORMATS, DEEPGRAM_SPEAK_OUTPUT_FORMATS } from './formats.js';
export { deepgramAdapterFromConfig } from './from-config.js';
export { deepgramCloseCode } from './listen-errors.js';
export type {
  DeepgramAdapterOptions,
  DeepgramSttOptions,
  DeepgramTtsOptions,
  DeepgramWebSocketAuth,
} from './options.js';
