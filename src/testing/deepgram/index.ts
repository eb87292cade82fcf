export { deepgramErrorBody, mockRequestId } from './errors.js';
export type { DeepgramListenScript } from './listen-script.js';
export {
  DEFAULT_INACTIVITY_TIMEOUT_MS,
  DEFAULT_SCRIPTED_CLOSE_REASON,
  inactivityCloseReason,
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
export type { MockWord } from './transcript.js';
export { DEFAULT_DEEPGRAM_TRANSCRIPT, DEFAULT_WORD_MS, mockWords } from './transcript.js';
