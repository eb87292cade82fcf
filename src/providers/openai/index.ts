export { createOpenAiAdapter } from './adapter.js';
export type {
  OpenAiAdapterOptions,
  OpenAiChatOptions,
  OpenAiSttOptions,
  OpenAiTtsOptions,
} from './options.js';
export { DEFAULT_TTS_SAMPLE_RATE } from './options.js';
export { openAiSttCapabilities, TRANSCRIPTION_INPUT_FORMATS } from './transcription-formats.js';
