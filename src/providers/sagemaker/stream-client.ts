/**
 * One event of a SageMaker response stream, as the AWS SDK yields it (the `ResponseStream`
 * union, PROTOCOLS.md 5.1, 5.3): exactly one member is set. The SDK throws modeled exceptions
 * from its iterator instead of yielding them; both forms are handled.
 */
export interface SageMakerStreamEvent {
  PayloadPart?: { Bytes?: Uint8Array | undefined } | undefined;
  ModelStreamError?: { Message?: string | undefined; ErrorCode?: string | undefined } | undefined;
  InternalStreamFailure?: { Message?: string | undefined } | undefined;
  $unknown?: unknown;
}

/**
 * The input of one `InvokeEndpointWithResponseStream` call, with the SDK's field names
 * (PROTOCOLS.md 5.1 lists the header each travels in).
 */
export interface SageMakerStreamInput {
  EndpointName: string;
  Body: Uint8Array;
  ContentType?: string;
  Accept?: string;
  CustomAttributes?: string;
  TargetVariant?: string;
  InferenceComponentName?: string;
  SessionId?: string;
}

/** The answer of one call: the event stream, and the response headers the SDK exposes. */
export interface SageMakerStreamOutput {
  Body?: AsyncIterable<SageMakerStreamEvent> | undefined;
  /** `X-Amzn-SageMaker-Content-Type`: the container's content type. */
  ContentType?: string | undefined;
  /** `x-Amzn-Invoked-Production-Variant`. */
  InvokedProductionVariant?: string | undefined;
}

/** Per-call options of {@link SageMakerStreamClient.invoke}. */
export interface SageMakerInvokeOptions {
  /** Aborting it cancels the request and closes the connection, also mid-stream. */
  abortSignal: AbortSignal;
  /** TCP (and TLS) connect deadline in ms; 0 or undefined: the client's default. */
  connectMs?: number;
  /**
   * Called with the status when the answer is an error status, before its body is read (see
   * `AttemptContext.onErrorStatus`). A client that cannot tell may never call it.
   */
  onErrorStatus?: (status: number) => void;
}

/**
 * What the adapter needs of a SageMaker Runtime client for response streams. The default
 * implementation is the AWS SDK's `SageMakerRuntimeClient` with
 * `InvokeEndpointWithResponseStreamCommand` (see `sdkStreamClient`); tests may supply their
 * own. `invoke` rejects with the SDK's errors (HTTP errors by name, network errors by code),
 * which the adapter maps to voxroute errors.
 */
export interface SageMakerStreamClient {
  invoke(input: SageMakerStreamInput, options: SageMakerInvokeOptions): Promise<SageMakerStreamOutput>;
  /** Closes the client's connections (keep-alive sockets included); later calls open new ones. */
  close?(): Promise<void>;
}
