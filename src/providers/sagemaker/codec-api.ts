/**
 * The SageMaker payload-codec API that the package's entry point exports (types, the built-in
 * codecs' helpers, the registry), apart from the adapter: importing it loads no adapter code,
 * no AWS SDK and no HTTP client (the adapter loads when a router's config names a `sagemaker`
 * provider).
 */
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
export { type JsonMessage, type JsonMessagesOptions, jsonMessages, type MessageFraming } from './framing.js';
export { type SplitLinesOptions, splitLines } from './lines.js';
export { registerSageMakerCodec, sageMakerCodec, sageMakerCodecNames } from './registry.js';
