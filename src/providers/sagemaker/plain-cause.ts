import { VoxrouteError } from '../../errors/index.js';
import { redactSecrets } from '../../transport/index.js';

/**
 * The cause kept on a voxroute error in place of an AWS SDK exception: its `name`, its
 * `message` with every credential removed, its `$fault` (`'client'` or `'server'`) and of its
 * `$metadata` only `httpStatusCode` and `requestId`. Never the SDK's `$response`: that holds the
 * live request (`ClientRequest`, whose header text carries `x-amz-security-token` and the SigV4
 * `Authorization`) and pins its socket and buffers for as long as the error is kept.
 */
export interface SageMakerSdkCause extends Error {
  readonly $fault?: 'client' | 'server';
  readonly $metadata: { readonly httpStatusCode?: number; readonly requestId?: string };
}

/** True for an AWS SDK exception or SDK-made error: it has `$response`, `$metadata` or `$fault`. */
export function isSdkError(error: unknown): error is Record<string, unknown> {
  return (
    typeof error === 'object' &&
    error !== null &&
    ('$response' in error || '$metadata' in error || '$fault' in error)
  );
}

/** Levels of a cause chain copied; a deeper cause is left out (a chain this deep says nothing more). */
const MAX_CAUSE_DEPTH = 8;

/** A plain copy of one error of a cause chain (see {@link plainCause}). */
type PlainCopy = Error & {
  errors?: unknown[];
  code?: string;
  errno?: number;
  syscall?: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number; requestId?: string };
};

/**
 * `error` as a cause fit to keep, with every error of its cause chain copied plain, so that
 * nothing the AWS SDK or Node's HTTP client attached can be reached from it: the SDK's
 * `$response` (the live ClientRequest, whose headers hold `x-amz-security-token` and the SigV4
 * `Authorization`), a socket or TLS error's request. Each error of the chain becomes an Error
 * with its `name`, its `message` with every credential removed (`secrets`, header-like record as
 * for `redactSecrets`), a stack of `name: message`, its string `code`, numeric `errno` and string
 * `syscall` when it has them, an AggregateError's `errors` (copied), and for an AWS SDK exception ({@link isSdkError}) its
 * {@link SageMakerSdkCause} fields; then its `cause`, copied the same way, down to
 * {@link MAX_CAUSE_DEPTH} levels (a deeper cause, or one seen before, is left out). A voxroute
 * error is kept (our own class; its cause chain is copied in place, see {@link detachSdkCause}),
 * a string is redacted, and any other value is left out (undefined).
 */
export function plainCause(error: unknown, secrets: Record<string, string> | undefined): unknown {
  return copyCause(error, secrets, 0, new Set());
}

function copyCause(
  error: unknown,
  secrets: Record<string, string> | undefined,
  depth: number,
  seen: Set<object>,
): unknown {
  if (typeof error === 'string') return redactSecrets(error, secrets);
  if (typeof error !== 'object' || error === null || depth >= MAX_CAUSE_DEPTH || seen.has(error))
    return undefined;
  seen.add(error);
  if (VoxrouteError.isInstance(error)) {
    setCause(error, copyCause(error.cause, secrets, depth + 1, seen));
    return error;
  }
  const e = error as Record<string, unknown>;
  const copy = new Error(redactSecrets(typeof e.message === 'string' ? e.message : '', secrets)) as PlainCopy;
  copy.name = typeof e.name === 'string' && e.name !== '' ? e.name : 'Error';
  if (typeof e.code === 'string') copy.code = redactSecrets(e.code, secrets);
  if (typeof e.errno === 'number') copy.errno = e.errno;
  if (typeof e.syscall === 'string') copy.syscall = e.syscall;
  if (isSdkError(error)) {
    if (e.$fault === 'client' || e.$fault === 'server') copy.$fault = e.$fault;
    const metadata = (typeof e.$metadata === 'object' && e.$metadata !== null ? e.$metadata : {}) as {
      httpStatusCode?: unknown;
      requestId?: unknown;
    };
    copy.$metadata = {
      ...(typeof metadata.httpStatusCode === 'number' ? { httpStatusCode: metadata.httpStatusCode } : {}),
      ...(typeof metadata.requestId === 'string' ? { requestId: metadata.requestId } : {}),
    };
  }
  // The stack names the error as the message does (the copy was captured under the name `Error`).
  copy.stack = `${copy.name}: ${copy.message}`;
  // An AggregateError (a connect that failed on every address): its errors, copied the same way.
  if (Array.isArray(e.errors))
    copy.errors = e.errors
      .map((item) => copyCause(item, secrets, depth + 1, seen))
      .filter((x) => x !== undefined);
  const cause = 'cause' in e ? copyCause(e.cause, secrets, depth + 1, seen) : undefined;
  if (cause !== undefined) copy.cause = cause;
  return copy;
}

/** Sets `error.cause` (or removes it when `cause` is undefined), keeping the property's enumerability. */
function setCause(error: Error, cause: unknown): void {
  const enumerable = Object.getOwnPropertyDescriptor(error, 'cause')?.enumerable ?? false;
  if (cause === undefined) {
    delete (error as { cause?: unknown }).cause;
    return;
  }
  Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true, enumerable });
}

/**
 * Replaces, in place, the cause chain of `error` (a voxroute error built by shared code, e.g.
 * the transport's network errors, that keeps the client's error as its cause) by its
 * {@link plainCause}; returns `error`.
 */
export function detachSdkCause<E extends Error>(error: E, secrets: Record<string, string> | undefined): E {
  if (error.cause !== undefined) setCause(error, plainCause(error.cause, secrets));
  return error;
}
