import { ProtocolError, ProviderError, TimeoutError, VoxrouteError } from '../../errors/index.js';
import {
  clipMessage,
  errorCode,
  isNetworkError,
  isRetryableStatus,
  mapWireError,
  parseRetryAfter,
  redactSecrets,
} from '../../transport/index.js';
import { CONNECT_DEADLINE_CODE } from './connect-deadline-agent.js';
import { EVENT_STREAM_CUT_CODE, EVENT_STREAM_LENGTH_CODE } from './event-stream-guard.js';
import type { SageMakerCredentials } from './options.js';
import { detachSdkCause, plainCause } from './plain-cause.js';

/**
 * SageMaker Runtime errors that are worth another attempt (PROTOCOLS.md 5.4, 5.5; AWSJS
 * schemas_0.ts): throttling, a model still loading, and every server-side failure.
 */
const RETRYABLE_NAMES = new Set([
  'ThrottlingException',
  'ModelNotReadyException',
  'InternalFailure',
  'ServiceUnavailable',
  'InternalDependencyException',
  'InternalServerError',
  'ServiceUnavailableError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

/**
 * Errors that say the request (or the model's answer to it) is bad, or access is denied: the
 * same call would fail again. `ModelError` (424) is the container failing on this input.
 */
const FINAL_NAMES = new Set([
  'ValidationError',
  'InputValidationError',
  'ModelError',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'ExpiredTokenException',
]);

/**
 * Names an HTTP error gets when the answer carried no SageMaker error type: the SDK's JSON
 * parse failure of a non-JSON body (`SyntaxError`), its fallback `UnknownError`, plain errors.
 */
const UNNAMED = new Set(['SyntaxError', 'UnknownError', 'Error', 'TypeError', 'RangeError']);

/** Modeled errors of the event stream itself, after HTTP 200 (PROTOCOLS.md 5.1, 5.3). */
export const STREAM_ERROR_NAMES = new Set(['ModelStreamError', 'InternalStreamFailure']);

/** Redaction input: the secret values of `credentials`, under names `redactSecrets` treats as secret. */
export function secretHeaders(
  credentials: SageMakerCredentials | undefined,
): Record<string, string> | undefined {
  if (!credentials) return undefined;
  const out: Record<string, string> = {
    'x-access-key': credentials.accessKeyId,
    'x-secret-key': credentials.secretAccessKey,
  };
  if (credentials.sessionToken) out['x-session-token'] = credentials.sessionToken;
  return out;
}

interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  $response?: { headers?: Record<string, string> };
  ErrorCode?: unknown;
  OriginalStatusCode?: unknown;
  Message?: unknown;
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

function shape(error: unknown): SdkErrorShape {
  return typeof error === 'object' && error !== null ? (error as SdkErrorShape) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The voxroute error of a failed `InvokeEndpointWithResponseStream` call before the stream
 * started (the SDK's rejection of `send`):
 * - an HTTP error (the SDK names it from `x-amzn-errortype`, PROTOCOLS.md 5.4) becomes a
 *   ProviderError with `status`, `providerCode` = the error name (`'ValidationError'`,
 *   `'ModelError'`, ...), and `retryable` true for throttling, `ModelNotReadyException` and
 *   5xx, false for `ValidationError`, `ModelError` and access errors; `retryAfterMs` from a
 *   `Retry-After` header (read from the SDK's `$response`). AWS sends
 *   `ThrottlingException` with status 400: it is reported with `status` 429 (rate limited),
 *   so that the router falls back instead of treating the request as bad. A `ModelError`
 *   message names the container's own status (`OriginalStatusCode`). An answer that is not a
 *   SageMaker Runtime error (no error type: a redirect, a proxy's or load balancer's HTML page,
 *   which the SDK fails to parse as JSON and names `SyntaxError`) gets `providerCode`
 *   `HTTP_<status>` (e.g. `'HTTP_307'`) and `retryable` from the status alone;
 * - a broken event-stream frame in the first event (read by the SDK before `send` resolves)
 *   is a retryable ProtocolError, as after it (see {@link thrownStreamError}); so is any other
 *   first event the SDK cannot decode, and an unmodeled `:message-type: error` there is mapped
 *   as by {@link streamError} (see {@link firstEventError}); the SDK's hint about its hidden
 *   `$response` field never reaches a message;
 * - `ModelStreamError` / `InternalStreamFailure` rejected by `send` (sent before any part) are
 *   mapped as by {@link streamError};
 * - the connect deadline (our agents' `CONNECT_DEADLINE_CODE`, or the SDK's own `TimeoutError`
 *   without an error code) becomes TimeoutError phase `connect`; a reset or broken connection, which the SDK also renames `TimeoutError` (it
 *   keeps the `code`, e.g. `ECONNRESET`), is a network error as below;
 * - network failures (refused, reset, DNS, TLS) become retryable ProviderErrors
 *   (`mapWireError`); anything else (e.g. no credentials found) a non-retryable ProviderError.
 * Messages never contain a credential (`secrets`), and neither an SDK exception nor a client
 * error is kept in the cause chain: every cause, at every depth (up to 8 levels), is a plain
 * copy (name, redacted message, `code`/`errno`/`syscall`, an SDK exception's `$fault` and
 * `$metadata` `httpStatusCode`/`requestId`; see plain-cause.ts), without the SDK's `$response`
 * or any request a socket or TLS error holds.
 */
export function invokeError(
  provider: string,
  error: unknown,
  connectMs: number,
  secrets: Record<string, string> | undefined,
): VoxrouteError {
  const e = shape(error);
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : undefined;
  const name = text(e.name) ?? 'Error';
  // The SDK reads the first event while it deserializes the response: a stream error sent
  // before any PayloadPart rejects `send` itself (HTTP status 200).
  if (STREAM_ERROR_NAMES.has(name)) return streamError(provider, name, e, false, secrets, error);
  const message = redactSecrets(text(e.message) ?? text(e.Message) ?? 'no message', secrets);
  if (status !== undefined && status >= 300) {
    const headers = e.$response?.headers;
    if (UNNAMED.has(name)) {
      return new ProviderError(
        `Provider '${provider}' answered HTTP ${status}, which is not a SageMaker Runtime error response`,
        {
          provider,
          status,
          providerCode: `HTTP_${status}`,
          retryable: isRetryableStatus(status),
          retryAfterMs: headers ? parseRetryAfter(lowerCase(headers)) : undefined,
          cause: plainCause(error, secrets),
        },
      );
    }
    const throttled = name === 'ThrottlingException';
    const retryable = FINAL_NAMES.has(name) ? false : RETRYABLE_NAMES.has(name) || isRetryableStatus(status);
    const original =
      typeof e.OriginalStatusCode === 'number' ? ` (the container answered ${e.OriginalStatusCode})` : '';
    return new ProviderError(
      `Provider '${provider}' answered HTTP ${status} ${name}${original}: ${clipMessage(message)}`,
      {
        provider,
        status: throttled && status === 400 ? 429 : status,
        providerCode: name,
        retryable,
        retryAfterMs: headers ? parseRetryAfter(lowerCase(headers)) : undefined,
        cause: plainCause(error, secrets),
      },
    );
  }
  const malformed = malformedFrame(provider, error, false, secrets);
  if (malformed) return malformed;
  if (
    (name === 'TimeoutError' && errorCode(error) === undefined) ||
    errorCode(error) === CONNECT_DEADLINE_CODE
  ) {
    return new TimeoutError('connect', connectMs, { provider, cause: plainCause(error, secrets) });
  }
  if (status !== undefined && status < 300 && !isNetworkError(error) && DESERIALIZATION_HINT.test(message))
    return firstEventError(provider, name, message, error, secrets);
  const mapped = mapWireError(error, {
    provider,
    stage: 'request',
    ...(secrets ? { requestHeaders: secrets } : {}),
  });
  return detachSdkCause(mapped, secrets);
}

/** The line the SDK's deserializer appends to an error it raised while reading a 2xx answer. */
const DESERIALIZATION_HINT = /\n\s*Deserialization error: to see the raw response/;

/**
 * The error of a first event the SDK could not read (it rejects `send` with its "Deserialization
 * error" after HTTP 200; `message` is the redacted message, its hint about the hidden
 * `$response` field dropped):
 * - an unmodeled `:message-type: error` (thrown as an Error named after its `:error-code`): a
 *   retryable ProviderError with `providerType` = that code, as after a PayloadPart;
 * - any other failure of the SDK's decoder (a header with an unknown type tag, a message without
 *   `:message-type`, which the SDK reports as a plain `Error` / `TypeError`): a broken frame, a
 *   retryable ProtocolError.
 */
function firstEventError(
  provider: string,
  name: string,
  message: string,
  error: unknown,
  secrets: Record<string, string> | undefined,
): VoxrouteError {
  const first = clipMessage(message.split(DESERIALIZATION_HINT)[0]!.split('\n')[0]!);
  if (!UNNAMED.has(name)) return streamError(provider, name, { message: first }, false, secrets, error);
  return new ProtocolError(`Provider '${provider}' sent a malformed event-stream message: ${first}`, {
    provider,
    retryable: true,
    partialOutput: false,
    cause: plainCause(error, secrets),
  });
}

/**
 * The error of a stream that failed after HTTP 200, whether the SDK yielded the
 * failure as a union member or threw it from its iterator:
 * - `ModelStreamError` (client fault; codes `ModelInvocationTimeExceeded`, `StreamBroken`) and
 *   `InternalStreamFailure` (server fault) become a retryable ProviderError with
 *   `providerType` = the exception type and `providerCode` = its `ErrorCode` (else the type);
 * - an unmodeled stream error (`:message-type: error`, thrown as an Error named after its
 *   `:error-code`) a retryable ProviderError with that code;
 * - a broken event-stream frame (checksum or length mismatch, a length out of bounds) a
 *   retryable ProtocolError;
 * - a body that ends inside a message, and a cut connection, a truncated (retryable)
 *   ProtocolError.
 * `partialOutput` is what the adapter had already yielded. No status: the HTTP status was 200.
 */
export function streamError(
  provider: string,
  type: string,
  body: { Message?: unknown; ErrorCode?: unknown; message?: unknown },
  partialOutput: boolean,
  secrets: Record<string, string> | undefined,
  cause?: unknown,
): ProviderError {
  const code = text(body.ErrorCode) ?? type;
  const message = clipMessage(
    redactSecrets(text(body.Message) ?? text(body.message) ?? 'no message', secrets),
  );
  const where = partialOutput ? 'mid-stream' : 'before any output';
  return new ProviderError(`Provider '${provider}' stream failed ${where} (${type}/${code}): ${message}`, {
    provider,
    providerType: type,
    providerCode: code,
    retryable: true,
    partialOutput,
    cause: plainCause(cause, secrets),
  });
}

/**
 * Maps an error thrown by the SDK's event-stream iterator; see {@link streamError}. A cut
 * connection is reported after `receivedBytes`, the PayloadPart bytes received before it
 * (default 0).
 */
export function thrownStreamError(
  provider: string,
  error: unknown,
  partialOutput: boolean,
  secrets: Record<string, string> | undefined,
  receivedBytes = 0,
): VoxrouteError {
  const e = shape(error);
  const name = text(e.name) ?? 'Error';
  if (STREAM_ERROR_NAMES.has(name)) return streamError(provider, name, e, partialOutput, secrets, error);
  const malformed = malformedFrame(provider, error, partialOutput, secrets);
  if (malformed) return malformed;
  if (isNetworkError(error) || VoxrouteError.isInstance(error)) {
    const mapped = mapWireError(error, {
      provider,
      stage: 'body',
      receivedBytes,
      partialOutput,
      ...(secrets ? { requestHeaders: secrets } : {}),
    });
    return detachSdkCause(mapped, secrets);
  }
  return streamError(provider, name === 'Error' ? 'StreamError' : name, e, partialOutput, secrets, error);
}

/**
 * The retryable ProtocolError of a broken event-stream frame, or undefined for any other error:
 * - a prelude or message checksum mismatch, a bad length, as the SDK's event-stream codec
 *   reports it, and a message length out of bounds (under 16 bytes or over 24 MiB, found by
 *   `guardEventStream` before the SDK buffers it): "sent a malformed event-stream message";
 * - a body that ended inside a message (found by `guardEventStream`, or the SDK's "Truncated
 *   event message received"): cut short, "(truncated)", as a cut connection is.
 * `offset` is the body offset of the message where `guardEventStream` found it. The message
 * keeps the first line of the original (the SDK's hint about its hidden `$response` field is
 * dropped).
 */
function malformedFrame(
  provider: string,
  error: unknown,
  partialOutput: boolean,
  secrets: Record<string, string> | undefined,
): ProtocolError | undefined {
  const message = text(shape(error).message) ?? '';
  const first = clipMessage(message.split('\n')[0]!);
  const code = errorCode(error);
  const guarded = code === EVENT_STREAM_LENGTH_CODE || code === EVENT_STREAM_CUT_CODE;
  const found = guarded ? (error as { offset?: unknown }).offset : undefined;
  const options = {
    provider,
    retryable: true,
    partialOutput,
    ...(typeof found === 'number' ? { offset: found } : {}),
    cause: plainCause(error, secrets),
  };
  if (code === EVENT_STREAM_CUT_CODE || /^Truncated event message/i.test(first))
    return new ProtocolError(
      `Provider '${provider}' ended its event stream inside a message (truncated)`,
      options,
    );
  if (!guarded && !/checksum|crc|prelude|message length|not enough data/i.test(message)) return undefined;
  return new ProtocolError(`Provider '${provider}' sent a malformed event-stream message: ${first}`, options);
}
