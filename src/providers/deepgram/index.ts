export { createDeepgramAdapter } from './adapter.js';
export { LISTEN_INPUT_FORMATS, SPEAK_OUTPUT_FORMATS } from './formats.js';
export { deepgramCloseCode } from './listen-errors.js';
export type {
  DeepgramAdapterOptions,
  DeepgramSttOptions,
  DeepgramTtsOptions,
  DeepgramWebSocketAuth,
} from './options.js';
export { DEFAULT_KEEP_ALIVE_MS } from './options.js';
export { deepgramAdapterFromConfig, type ResolvedDeepgramConfig } from './from-config.js';
