/**
 * The body of an error event sent inside a 200 stream by {@link MockScript.errorEventAfterChunks}.
 * Defaults: message `'mock error event'`, type `'server_error'`, code `'server_error'`
 * (the integer 500 with the vLLM dialect).
 *
 * @example
 * ```ts
 * const overloaded: MockErrorEvent = { type: 'overloaded_error', code: 'overloaded', message: 'busy' };
 * ```
 */
export interface MockErrorEvent {
  /** The error's message text. Default: `'mock error event'`. */
  message?: string;
  /**
   * The error's type, e.g. `'server_error'`, `'overloaded_error'`. Default: the mock's usual server error
   * type.
   */
  type?: string;
  /**
   * The error's code: a string, or an integer where the imitated server sends one (vLLM: the HTTP status).
   */
  code?: string | number;
}

/**
 * How a mock behaves on one call: latency, chunking and faults. Every field is optional; an
 * empty script answers at once, correctly. Set per mock and per endpoint, and per call with
 * {@link PerCall} (one value, an array one per call, or a function of the call number).
 *
 * A "chunk" is one write to the response body: one SSE frame (`data: ...\n\n`, including the
 * first role-only chat chunk and the closing frames), one piece of raw audio of `chunkBytes`
 * bytes, or the whole body of a non-streamed JSON answer. The `...AfterChunks` counts K say how
 * many chunks go out before the fault; faults are checked in this order at each position:
 * reset, stall, error event, malformed frame.
 *
 * Times are in ms and wait through the mock's injectable `delay`, so tests can run them
 * without real time (see `createManualDelay`).
 *
 * @example
 * ```ts
 * const script: MockScript = { failTimes: 2, failStatus: 429, retryAfter: '0' };   // 429, 429, then OK
 * const flaky: MockScript = { firstChunkDelayMs: 40, chunkGapMs: 5, chunkBytes: 4063, resetAfterChunks: 3 };
 * ```
 */
export interface MockScript {
  /** Wait before sending the response headers (time to first byte), in ms. Default: 0. */
  headersDelayMs?: number;
  /** Wait after the headers and before the first body chunk (time to first chunk), in ms. Default: 0. */
  firstChunkDelayMs?: number;
  /** Wait between body chunks, in ms. Default: 0. */
  chunkGapMs?: number;
  /**
   * Size in bytes of each raw audio chunk (the last one may be shorter); odd sizes are allowed
   * on purpose, to split samples. For SSE audio it is the raw bytes in each base64 delta.
   * Default: 4800 (100 ms of 24 kHz PCM s16le).
   */
  chunkBytes?: number;
  /**
   * Fail the first N calls on the endpoint (call numbers 1..N) with `failStatus`, in one script
   * for every call or in a function's result. In an array entry, which describes one call only:
   * N ≥ 1 fails that call, 0 keeps it from failing. Default: 0.
   */
  failTimes?: number;
  /**
   * HTTP status of a failed call. Default: 500. In an array entry or a function's result with no
   * `failTimes`, setting it fails that call: `[{}, {}, { failStatus: 500 }]` fails call 3 only.
   */
  failStatus?: number;
  /**
   * Body of a failed call: a string is sent as it is, anything else as JSON. Default: the
   * dialect's error body for `failStatus` (OpenAI `{"error":{...}}`, vLLM with integer code,
   * FastAPI `{"detail":...}` for Kokoro and speaches).
   */
  failBody?: unknown;
  /** `Retry-After` header on failed calls, sent as given (e.g. `'2'` seconds or an HTTP date). */
  retryAfter?: string;
  /**
   * Reset the connection after K body chunks. K = 0 resets before the headers. On the loopback
   * server the TCP socket is reset (the client sees ECONNRESET / "other side closed"); through
   * msw, K = 0 is `Response.error()` (fetch rejects with TypeError) and K > 0 errors the body
   * stream (the read rejects with TypeError 'terminated').
   */
  resetAfterChunks?: number;
  /**
   * Send K body chunks (K = 0: headers only), then stay open and silent until the client goes
   * away; the request's record then shows `aborted: true` and `chunksSent: K`.
   */
  stallAfterChunks?: number;
  /**
   * After K chunks, send one malformed SSE frame (`data: ` with invalid JSON), then go on as
   * normal. Ignored for raw audio bodies (pcm, wav), which have no frames.
   */
  malformedAfterChunks?: number;
  /**
   * Leave out the frames that end a stream normally: the chat finish chunk, usage chunk and
   * `data: [DONE]`, `transcript.text.done`, `speech.audio.done`. The body then ends cleanly
   * (truncated). Ignored for raw audio bodies.
   */
  endWithoutDone?: boolean;
  /**
   * After K chunks, send an error inside the 200 stream, `data: {"error":{...}}` (OpenAI and
   * vLLM style; vLLM then sends `data: [DONE]`), and end the body. Ignored for raw audio bodies.
   */
  errorEventAfterChunks?: number;
  /** Fields of the error event above. */
  errorEvent?: MockErrorEvent;
}

/**
 * Default {@link MockScript.chunkBytes}: 4800 bytes, 100 ms of 24 kHz PCM s16le.
 *
 * @example
 * ```ts
 * const chunks = Math.ceil(mockSpeechPcm('Hello').byteLength / DEFAULT_CHUNK_BYTES); // 3
 * ```
 */
export const DEFAULT_CHUNK_BYTES = 4800;
