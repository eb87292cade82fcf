export { createSageMakerAdapter } from './adapter.js';
export type {
  ChatCodecCall,
  CodecCall,
  SageMakerChatCodec,
  SageMakerCodec,
  SageMakerInputPart,
  SageMakerInvocation,
  SageMakerSttCodec,
  SageMakerTtsCodec,
  SttCodecCall,
} from './codec.js';
export { renderPrompt } from './codecs/prompt.js';
export type { ResolvedSageMakerConfig } from './config.js';
export { type JsonMessage, type JsonMessagesOptions, jsonMessages, type MessageFraming } from './framing.js';
export { sageMakerAdapterFromConfig, sageMakerOptionsFromConfig } from './from-config.js';
export { type SplitLinesOptions, splitLines } from './lines.js';
export type {
  SageMakerAdapterOptions,
  SageMakerChatOptions,
  SageMakerCredentials,
  SageMakerStreamMode,
  SageMakerSttOptions,
  SageMakerTtsOptions,
} from './options.js';
export { registerSageMakerCodec, sageMakerCodec, sageMakerCodecNames } from './registry.js';
export { loadSageMakerSdk } from './sdk-client.js';
export type {
  SageMakerInvokeOptions,
  SageMakerStreamClient,
  SageMakerStreamEvent,
  SageMakerStreamInput,
  SageMakerStreamOutput,
} from './stream-client.js';
