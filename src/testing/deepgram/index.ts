export { deepgramErrorBody, deepgramRequestId } from './errors.js';
export type { DeepgramListenScript } from './listen-script.js';
export {
  DEEPGRAM_INACTIVITY_TIMEOUT_MS,
  DEEPGRAM_SCRIPTED_CLOSE_REASON,
  deepgramInactivityReason,
} from './listen-script.js';
export type { DeepgramListenClose, DeepgramListenFrame, DeepgramListenSession } from './listen-session.js';
export type {
  DeepgramEndpointName,
  DeepgramMock,
  DeepgramMockOptions,
  DeepgramMockScripts,
} from './mock.js';
export { createDeepgramMock } from './mock.js';
export type { DeepgramHandlersOptions } from './msw-handlers.js';
export { deepgramHandlers } from './msw-handlers.js';
export type { DeepgramMockSpeechOptions } from './speak.js';
export { mockDeepgramSpeech } from './speak.js';
export type { DeepgramMockWord } from './transcript.js';
export { DEEPGRAM_DEFAULT_WORD_MS, DEFAULT_DEEPGRAM_TRANSCRIPT, deepgramMockWords } from './transcript.js';
