export { createSageMakerAdapter } from './adapter.js';
export * from './codec-api.js';
export type { ResolvedSageMakerConfig } from './config.js';
export { sageMakerAdapterFromConfig, sageMakerOptionsFromConfig } from './from-config.js';
export type {
  SageMakerAdapterOptions,
  SageMakerChatOptions,
  SageMakerCredentials,
  SageMakerStreamMode,
  SageMakerSttOptions,
  SageMakerTtsOptions,
} from './options.js';
export { loadSageMakerSdk } from './sdk-client.js';
export type {
  SageMakerInvokeOptions,
  SageMakerStreamClient,
  SageMakerStreamEvent,
  SageMakerStreamInput,
  SageMakerStreamOutput,
} from './stream-client.js';
