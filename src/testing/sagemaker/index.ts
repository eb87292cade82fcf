export type { SageMakerDuplexRecord } from './bidi.js';
export {
  type SageMakerChatEndpointOptions,
  type SageMakerChatPayload,
  type SageMakerSttEndpointOptions,
  type SageMakerTtsEndpointOptions,
  type SageMakerTtsPayload,
  sageMakerChatEndpoint,
  sageMakerChatReply,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
} from './endpoints.js';
export { sageMakerErrorResponse, sageMakerErrorType } from './errors.js';
export {
  createSageMakerMock,
  type SageMakerColdStart,
  type SageMakerMock,
  type SageMakerMockOptions,
  type SageMakerOperation,
} from './mock.js';
export { type SageMakerHandlersOptions, sageMakerHandlers } from './msw-handlers.js';
export { type SageMakerEmulator, type SageMakerEmulatorOptions, startSageMakerEmulator } from './server.js';
export type {
  SageMakerCallContext,
  SageMakerDuplexHandler,
  SageMakerDuplexPart,
  SageMakerEndpoint,
  SageMakerReply,
  SageMakerScript,
} from './types.js';
