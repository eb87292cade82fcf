import type { Clock } from '../../internal/clock.js';
import type { SageMakerStreamClient } from './stream-client.js';

/** Static AWS credentials (SigV4). Never logged, never put in an error message. */
export interface SageMakerCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * How a capability talks to the endpoint: `'response'` is one
 * `InvokeEndpointWithResponseStream` call (PROTOCOLS.md 5.1); `'bidirectional'` is
 * `InvokeEndpointWithBidirectionalStream` over HTTP/2 (5.5).
 */
export type SageMakerStreamMode = 'response' | 'bidirectional';

/** Options of the chat capability: `payload` names a registered chat codec (default `'openai-chat'`). */
export interface SageMakerChatOptions {
  payload: string;
}

/**
 * Options of the TTS capability: `payload` names a registered TTS codec; `sampleRate` (Hz) is
 * the rate of the audio the endpoint produces; `stream` the invocation mode (default `'response'`).
 */
export interface SageMakerTtsOptions {
  payload: string;
  sampleRate: number;
  stream?: SageMakerStreamMode;
}

/**
 * Options of the STT capability: `payload` names a registered STT codec; `sampleRate` (Hz) is
 * the rate of the audio sent; `stream` the invocation mode (default `'response'`).
 */
export interface SageMakerSttOptions {
  payload: string;
  sampleRate: number;
  stream?: SageMakerStreamMode;
}

/**
 * Options of {@link createSageMakerAdapter}.
 * - `name`: the provider's name in the config (errors and attempts carry it).
 * - `region`, `endpointName`: where to invoke (SigV4 signing name `sagemaker`).
 * - `targetVariant`, `inferenceComponent`, `sessionId`, `customAttributes`: sent as
 *   `X-Amzn-SageMaker-Target-Variant`, `-Inference-Component`, `-Session-Id`,
 *   `-Custom-Attributes` (PROTOCOLS.md 5.1).
 * - `endpointUrl`: a custom endpoint used verbatim (the loopback emulator, a VPC endpoint).
 *   Default: the SDK's regional endpoint (`https://runtime.sagemaker.<region>.amazonaws.com`;
 *   port 8443 for bidirectional streams, 5.5).
 * - `credentials`: static credentials; omitted: the AWS SDK's default provider chain.
 * - `chat`, `tts`, `stt`: only the capabilities whose option is present are created.
 * - `streamClient`: replaces the AWS SDK client for response streams (tests, custom stacks).
 *   Default: `@aws-sdk/client-sagemaker-runtime`, whose loading starts when the adapter is made.
 * - `clock`: timers of the connect, idle, headers and total deadlines and of the error-body
 *   bound. Default: the system clock.
 */
export interface SageMakerAdapterOptions {
  name: string;
  region: string;
  endpointName: string;
  targetVariant?: string;
  inferenceComponent?: string;
  endpointUrl?: string;
  credentials?: SageMakerCredentials;
  sessionId?: string;
  customAttributes?: string;
  chat?: SageMakerChatOptions;
  tts?: SageMakerTtsOptions;
  stt?: SageMakerSttOptions;
  streamClient?: SageMakerStreamClient;
  clock?: Clock;
}
