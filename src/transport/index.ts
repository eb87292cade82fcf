export { type TunedAgentSettings, tunedAgentOptions } from './agent.js';
export { isRetryableProviderKind, isRetryableStatus } from './classify.js';
export { type ParsedErrorBody, parseErrorBody } from './error-body.js';
export { clipMessage } from './excerpt.js';
export { createHttpTransport } from './http-transport.js';
export {
  isDoneSentinel,
  type JsonEvent,
  type ParseJsonEventsOptions,
  parseJsonEvents,
} from './json-events.js';
export {
  errorCode,
  isNetworkError,
  mapWireError,
  truncatedError,
  type WireErrorContext,
  type WireStage,
} from './network-error.js';
export { redactSecrets } from './redact.js';
export { parseRetryAfter } from './retry-after.js';
export { type ParseSseOptions, parseSse, type SseEvent } from './sse.js';
export { providerErrorFromStatus, type StatusErrorInput } from './status-error.js';
export { errorFromStreamPayload, isStreamErrorPayload } from './stream-error.js';
export type {
  Deadlines,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  HttpTransportOptions,
  PreconnectOptions,
} from './types.js';
export { createWebSocketTransport } from './websocket.js';
export {
  closeError,
  closeReasonKind,
  isNormalClose,
  isRetryableClose,
  type PolicyCloseVerdict,
  policyCloseVerdict,
} from './websocket-close.js';
export { redactUrl } from './websocket-redact.js';
export type {
  WebSocketClose,
  WebSocketConnection,
  WebSocketConnectRequest,
  WebSocketDeadlines,
  WebSocketMessage,
  WebSocketTransport,
  WebSocketTransportOptions,
} from './websocket-types.js';
