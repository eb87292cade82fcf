import {
  ProtocolError,
  ProviderError,
  TimeoutError,
  type TimeoutPhase,
  VoxrouteError,
} from '../errors/index.js';
import { redactSecrets } from './redact.js';
import { refusedRequestError } from './refused-request.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPROTO',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_CONNECT_TIMEOUT',
  // node:http2: the peer reset the stream (RST_STREAM) or tore down the session (GOAWAY, a
  // broken connection): the server failed, the request may go elsewhere.
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_STREAM_CANCEL',
]);

const TIMEOUT_CODES: Record<string, TimeoutPhase> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'idle',
};

/**
 * Codes of the HTTP client refusing a request before sending any byte of it: an argument it
 * cannot send, above all a header value with a line break or control character (undici's
 * `UND_ERR_INVALID_ARG` "invalid authorization header", node:http's `ERR_INVALID_CHAR`).
 * Nothing reached the provider, so it is not the provider's failure.
 */
const REFUSED_BEFORE_SENDING = new Set([
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_HTTP2_INVALID_HEADER_VALUE',
]);

/**
 * Whether `error` (or a cause of it, three levels down) says the response broke HTTP/1.1
 * itself: undici's `HTTPParserError` (LF-only line ends, a garbage status line,
 * Transfer-Encoding with Content-Length, a bad chunk size...; its `code` is `HPE_*` when set,
 * often undefined) and a body longer or shorter than its Content-Length
 * (`UND_ERR_RES_CONTENT_LENGTH_MISMATCH`). Over a fetch the same error is the cause of its
 * `TypeError`.
 */
export function isHttpProtocolError(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (name === 'HTTPParserError') return true;
    if (
      typeof code === 'string' &&
      (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Where in an exchange a wire error happened: before the response headers, or while reading the body. */
export type WireStage = 'request' | 'body';

/** Context of {@link mapWireError}. */
export interface WireErrorContext {
  provider: string;
  stage: WireStage;
  /** Body bytes received before the error (stage `body`). */
  receivedBytes?: number;
  /** The response's `content-length`, when it had one. */
  contentLength?: number;
  /** True when body bytes had already been handed to the consumer. */
  partialOutput?: boolean;
  /** True on the fetch path, where every `TypeError` from fetch is a network error (Fetch standard). */
  fromFetch?: boolean;
  /** The request's headers, so that no secret among them reaches a message. */
  requestHeaders?: Record<string, string>;
  /** The deadline of each phase in ms, for a timeout raised by the HTTP client itself. */
  timeoutMsOf?: (phase: TimeoutPhase) => number;
  /**
   * True when the failure is a reset of a reused keep-alive socket before any response byte
   * (stage `request`), which the wire could not retry: the ProviderError gets
   * `reusedSocketReset: true`. Default: false.
   */
  reusedSocketReset?: boolean;
}

/**
 * The code of a Node or undici error, looked up through up to three levels of `cause` (fetch
 * wraps the real error as `TypeError('fetch failed', { cause })`).
 */
export function errorCode(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * True for failures of the network itself: refused, reset or closed connections, DNS failures,
 * unreachable hosts, TLS failures, the HTTP client's own socket errors (`UND_ERR_SOCKET`,
 * "other side closed"), and HTTP/2 streams or sessions the peer reset or closed. Programming errors (invalid arguments, bad header values) are not.
 */
export function isNetworkError(error: unknown): boolean {
  const code = errorCode(error);
  if (code === undefined) return false;
  return (
    NETWORK_CODES.has(code) ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    /CERT|_SIGNATURE/.test(code)
  );
}

/** What each of the HTTP client's own timeouts waited for, and the client option that sets it. */
const CLIENT_TIMEOUTS: Record<string, { what: string; option: string }> = {
  UND_ERR_CONNECT_TIMEOUT: { what: 'connection', option: 'connect.timeout' },
  UND_ERR_HEADERS_TIMEOUT: { what: 'response headers', option: 'headersTimeout' },
  UND_ERR_BODY_TIMEOUT: { what: 'body data', option: 'bodyTimeout' },
};

/**
 * The message of a timeout of the HTTP client's own (`code`), when voxroute ran no deadline of
 * that phase: it names the code and the client option, not a route setting.
 */
function clientTimeoutMessage(provider: string, phase: TimeoutPhase, code: string): string {
  const { what, option } = CLIENT_TIMEOUTS[code] ?? { what: phase, option: 'timeout' };
  return `No ${what} from provider '${provider}' before the HTTP client's own timeout (${code}: its ${option}), not a voxroute deadline: the route's deadlines apply where the client's own timeouts are off (0) or longer`;
}

/**
 * Turns an error from the HTTP client (undici or a fetch) into voxroute's typed error:
 * - a voxroute error is returned as it is;
 * - the client refusing to send the request at all (a header value with a line break, an
 *   argument it cannot send: `UND_ERR_INVALID_ARG`, `ERR_INVALID_CHAR`...) becomes a
 *   ConfigError at `providers.<name>`: nothing reached the provider, no other provider of the
 *   same config would do better, and the router charges no provider for it;
 * - the client's own timeouts (`UND_ERR_CONNECT_TIMEOUT`, `UND_ERR_HEADERS_TIMEOUT`,
 *   `UND_ERR_BODY_TIMEOUT`) become TimeoutError with phase `connect`, `headers`, `idle`; but
 *   for a connect timeout of voxroute's own (`timeoutMsOf('connect')` above 0), these are the
 *   client's own timeouts (voxroute's undici dispatches turn headers and body timeouts off; a
 *   caller's fetch may not): `timeoutMs` 0, `setting` undefined, and a message naming the
 *   client's code and option instead of a route setting;
 * - before the headers, a network failure (refused, reset, DNS, TLS, socket closed; on the fetch
 *   path any `TypeError`, or an abort/timeout raised by the caller's fetch wrapper) becomes a
 *   retryable ProviderError without `status` (with `reusedSocketReset` from the context); any
 *   other failure a non-retryable ProviderError;
 * - a response that breaks HTTP/1.1 itself (see {@link isHttpProtocolError}) becomes a retryable
 *   ProtocolError, the same on the undici and fetch paths, with `offset` the body bytes
 *   received when it happened while the body was read;
 * - while the body is read, a network failure means the body was cut: a retryable ProtocolError
 *   ("truncated") whose `offset` is the bytes received, with `partialOutput` as given.
 * The message names the error code, never a request header; the original error is the `cause`.
 */
export function mapWireError(error: unknown, context: WireErrorContext): VoxrouteError {
  if (VoxrouteError.isInstance(error)) return error;
  const { provider } = context;
  const code = errorCode(error);
  const partialOutput = context.partialOutput ?? false;
  const timeoutPhase = code ? TIMEOUT_CODES[code] : undefined;
  if (timeoutPhase) {
    // voxroute's own deadlines fire as its own TimeoutErrors, and its undici dispatches turn the
    // client's headers and body timeouts off: such a code is the HTTP client's own timeout (a
    // fetch given to createRouter whose dispatcher has one; an agent's connect timeout where
    // voxroute runs no connect deadline). Said as such, never as "within 0 ms" or as a route
    // setting that did not fire.
    const own = code !== 'UND_ERR_CONNECT_TIMEOUT' || !context.timeoutMsOf?.(timeoutPhase);
    const timeoutMs = own ? 0 : context.timeoutMsOf!(timeoutPhase);
    const timeout = new TimeoutError(timeoutPhase, timeoutMs, { provider, partialOutput, cause: error });
    if (own) {
      const clients = timeout as { message: string; setting: TimeoutError['setting'] };
      clients.message = clientTimeoutMessage(provider, timeoutPhase, code!);
      clients.setting = undefined;
    }
    return timeout;
  }
  const network = isNetworkError(error) || (context.fromFetch === true && isFetchFailure(error));
  const detail = redactSecrets(describe(error, code), context.requestHeaders);
  if (code !== undefined && REFUSED_BEFORE_SENDING.has(code) && context.stage === 'request') {
    return refusedRequestError(
      provider,
      `${detail} (a header value from apiKey or headers may contain a line break or control character)`,
      error,
    );
  }
  if (isHttpProtocolError(error)) {
    const body = context.stage === 'body';
    return new ProtocolError(`Provider '${provider}' broke the HTTP/1.1 protocol: ${detail}`, {
      provider,
      retryable: true,
      partialOutput,
      ...(body ? { offset: context.receivedBytes ?? 0 } : {}),
      cause: error,
    });
  }
  if (context.stage === 'body' && (network || context.fromFetch)) {
    return truncatedError(
      provider,
      context.receivedBytes ?? 0,
      context.contentLength,
      partialOutput,
      error,
      detail,
    );
  }
  if (network) {
    return new ProviderError(`Network error talking to provider '${provider}': ${detail}`, {
      provider,
      retryable: true,
      partialOutput,
      cause: error,
      reusedSocketReset: context.reusedSocketReset === true,
    });
  }
  return new ProviderError(`Request to provider '${provider}' failed: ${detail}`, {
    provider,
    retryable: false,
    partialOutput,
    cause: error,
  });
}

/**
 * On the fetch path: a `TypeError` is a network error by the Fetch standard; an `AbortError` or
 * `TimeoutError` that reaches us came from the caller's own fetch wrapper (ours settle the
 * exchange first), e.g. its own timeout, and is treated as a transient failure too.
 */
function isFetchFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'AbortError' || name === 'TimeoutError';
}

function describe(error: unknown, code: string | undefined): string {
  const root = innermost(error);
  const message = root instanceof Error ? root.message : String(root);
  return code && !message.includes(code) ? `${code} (${message})` : message;
}

function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 4; depth++) {
    const cause =
      typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined;
    if (cause === undefined || cause === null) return current;
    current = cause;
  }
  return current;
}

/**
 * The error of a response body cut before its end (a closed or reset connection, or fewer bytes
 * than its `content-length`): a retryable ProtocolError whose `offset` is the bytes received.
 *
 * @param provider Provider name.
 * @param receivedBytes Body bytes received before the cut.
 * @param contentLength The declared length, when the response had one (negative or undefined: none).
 * @param partialOutput True when the consumer had already received body bytes.
 * @param cause The underlying error, if any.
 * @param detail What cut it (an error code and message), for the message.
 */
export function truncatedError(
  provider: string,
  receivedBytes: number,
  contentLength: number | undefined,
  partialOutput: boolean,
  cause?: unknown,
  detail?: string,
): ProtocolError {
  const of = contentLength !== undefined && contentLength >= 0 ? ` of ${contentLength}` : '';
  const why = detail ? `: ${detail}` : '';
  return new ProtocolError(
    `Response body from provider '${provider}' was cut after ${receivedBytes}${of} bytes (truncated)${why}`,
    { provider, retryable: true, partialOutput, offset: receivedBytes, cause },
  );
}
