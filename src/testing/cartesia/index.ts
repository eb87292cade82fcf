export {
  CARTESIA_MOCK_MS_PER_CHARACTER,
  type CartesiaMockSpeech,
  type CartesiaWordTimestamps,
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
export type { CartesiaReceivedFrame, CartesiaSocketRecord } from './socket-record.js';
