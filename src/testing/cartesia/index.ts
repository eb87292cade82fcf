export {
  type CartesiaMockSpeech,
  DEFAULT_MS_PER_CHARACTER,
  type MockWordTimestamps,
  mockCartesiaAudio,
  mockWordTimestamps,
} from './audio.js';
export {
  type CartesiaMock,
  type CartesiaMockOptions,
  type CartesiaTranscriptContext,
  createCartesiaMock,
} from './mock.js';
export { type CartesiaHandlersOptions, cartesiaHandlers } from './msw-handlers.js';
export type { CartesiaEndpointName, CartesiaEndpointScripts, CartesiaMockScript } from './script.js';
export type { CartesiaSocketRecord, ReceivedFrame } from './socket-record.js';
