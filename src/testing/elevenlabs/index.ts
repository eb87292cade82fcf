export {
  ELEVENLABS_MOCK_MS_PER_CHARACTER,
  type MockElevenLabsSpeech,
  mockElevenLabsAudio,
  mockElevenLabsDurationMs,
} from './audio.js';
export { elevenLabsErrorBody, elevenLabsValidationErrorBody } from './errors.js';
export {
  createElevenLabsMock,
  type ElevenLabsEndpointName,
  type ElevenLabsMock,
  type ElevenLabsMockOptions,
} from './mock.js';
export {
  type ElevenLabsHandlersOptions,
  elevenLabsHandlers,
  elevenLabsWebSocketHandler,
} from './msw-handlers.js';
export type { ElevenLabsSocketRecord } from './recorded-socket.js';
export type { ElevenLabsScripts, ElevenLabsSocketScript } from './script.js';
export {
  ELEVENLABS_CHUNK_LENGTH_SCHEDULE,
  type ElevenLabsAlignmentDurationsKey,
  mockElevenLabsAlignment,
} from './stream-input.js';
