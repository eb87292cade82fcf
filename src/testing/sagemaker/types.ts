import type { MockScript } from '../mock-script.js';
import type { CallContext, PerCall } from '../per-call.js';

/**
 * The SageMaker emulator's script: the fields of {@link MockScript}, read as follows for an
 * event stream (a "chunk" is one PayloadPart message):
 * - `failTimes` / `failStatus` / `failBody` / `retryAfter`: HTTP errors before the stream, with
 *   `x-amzn-errortype` from `errorType` (default: by status, see `sageMakerErrorType`);
 * - `errorEventAfterChunks` + `errorEvent`: a stream error after K parts, then the body ends
 *   (`errorEvent.type` `'ModelStreamError'` (default, `code` its `ErrorCode`, default
 *   `'ModelInvocationTimeExceeded'`) or `'InternalStreamFailure'`; any other type is sent as an
 *   unmodeled `:message-type: error`);
 * - `malformedAfterChunks`: after K parts, one PayloadPart message whose message CRC is wrong;
 * - `endWithoutDone`: leave out the reply's closing parts (e.g. `[DONE]`, Cartesia's `done`);
 * - `resetAfterChunks`, `stallAfterChunks`, `headersDelayMs`, `firstChunkDelayMs`,
 *   `chunkGapMs`: as for every mock; `chunkBytes`: audio bytes per part of the TTS endpoints.
 *
 * @example
 * ```ts
 * const c21: SageMakerScript = { errorEventAfterChunks: 1, errorEvent: { code: 'ModelInvocationTimeExceeded' } };
 * ```
 */
export interface SageMakerScript extends MockScript {
  /** `x-amzn-errortype` of a failed call. Default: from `failStatus` (see `sageMakerErrorType`). */
  errorType?: string;
  /**
   * Cut the stream's bytes again into PayloadParts of this many bytes, so that messages (SSE
   * events, JSON lines) and UTF-8 characters are split across parts. Default: the reply's parts.
   */
  partBytes?: number;
}

/**
 * What an endpoint streams back for one call: the PayloadPart payloads in order (strings are
 * sent as UTF-8), the `closing` parts that end the stream normally (left out by
 * `endWithoutDone`), and the container's content type (`X-Amzn-SageMaker-Content-Type`).
 *
 * @example
 * ```ts
 * const c20: SageMakerReply = { parts: ['{"outputs":[" a"]}\n', '{"outputs":[" b"]}'] };
 * ```
 */
export interface SageMakerReply {
  /** The PayloadPart payloads streamed back, in order; a string is sent as UTF-8. */
  parts: Array<string | Uint8Array>;
  /** Parts that end the stream normally, sent after `parts` (left out by `endWithoutDone`). Default: none. */
  closing?: Array<string | Uint8Array>;
  /**
   * The container's content type (`X-Amzn-SageMaker-Content-Type`). Default: `'application/octet-stream'`.
   */
  contentType?: string;
}

/**
 * What a reply function receives: the call number on the endpoint, its record, the endpoint
 * name, the request body's bytes and, when it parses, its JSON.
 *
 * @example
 * ```ts
 * const echo = ({ json }: SageMakerCallContext) => ({ parts: [JSON.stringify(json)] });
 * ```
 */
export interface SageMakerCallContext extends CallContext {
  /** Name of the endpoint called (from the request path). */
  endpointName: string;
  /** The request body's bytes, as received. */
  body: Uint8Array;
  /** The request body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/**
 * One emulated endpoint: what it answers (`reply`, per call) and its script (per call;
 * default: the emulator's script). Make one with `sageMakerChatEndpoint`,
 * `sageMakerTtsEndpoint`, `sageMakerSttEndpoint`, or write the parts yourself.
 *
 * @example
 * ```ts
 * const endpoint: SageMakerEndpoint = { reply: { parts: ['data: {"t":"Hel"}\n\n'] } };
 * ```
 */
export interface SageMakerEndpoint {
  /** What the endpoint streams back: one reply, one per call, or a function of the call. */
  reply: PerCall<SageMakerReply, SageMakerCallContext>;
  /** Latency and faults of this endpoint, per call. Default: the emulator's script. */
  script?: PerCall<SageMakerScript>;
  /**
   * Answers a bidirectional stream (HTTP/2): receives the input parts as they arrive and
   * returns the output parts. Default: the output of `reply` once the input is complete.
   */
  duplex?: SageMakerDuplexHandler;
}

/** One PayloadPart of a bidirectional stream, as received or sent (SageMaker Runtime API reference). */
export interface SageMakerDuplexPart {
  /** The part's payload bytes. */
  bytes: Uint8Array;
  /** The part's `DataType` header (`'UTF8'` or `'BINARY'`); undefined when the part has none. */
  dataType?: string;
  /** The part's `CompletionState` header (`'PARTIAL'` or `'COMPLETE'`); undefined when the part has none. */
  completionState?: string;
}

/**
 * Answers one bidirectional stream: `input` yields the unwrapped input parts (the signed
 * envelopes removed) until the client's end frame; the returned parts are streamed back as
 * they are produced.
 *
 * @example
 * ```ts
 * const echo: SageMakerDuplexHandler = async function* (input) { for await (const part of input) yield part; };
 * ```
 */
export type SageMakerDuplexHandler = (
  input: AsyncIterable<SageMakerDuplexPart>,
  context: SageMakerCallContext,
) => AsyncIterable<SageMakerDuplexPart | string | Uint8Array>;
