export { AbortError } from './abort-error.js';
export { AllProvidersFailedError } from './all-providers-failed-error.js';
export { AudioConversionError } from './audio-conversion-error.js';
export { ConfigError, type ConfigIssue } from './config-error.js';
export { MidStreamError } from './mid-stream-error.js';
export { ProtocolError, type ProtocolErrorOptions } from './protocol-error.js';
export { ProviderError, type ProviderErrorOptions } from './provider-error.js';
export { RequestError } from './request-error.js';
export {
  TimeoutError,
  type TimeoutErrorOptions,
  type TimeoutPhase,
  type TimeoutSetting,
} from './timeout-error.js';
export { VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';
