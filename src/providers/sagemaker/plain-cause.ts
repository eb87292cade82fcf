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

/**
 * `error` as a cause fit to keep: an AWS SDK exception ({@link isSdkError}) becomes a plain
 * {@link SageMakerSdkCause} (message redacted against `secrets`, header-like record as for
 * `redactSecrets`); anything else is returned as it is.
 */
export function plainCause(error: unknown, secrets: Record<string, string> | undefined): unknown {
  if (!isSdkError(error)) return error;
  const message = typeof error.message === 'string' ? error.message : '';
  const cause = new Error(redactSecrets(message, secrets)) as Error & {
    $fault?: 'client' | 'server';
    $metadata: { httpStatusCode?: number; requestId?: string };
  };
  cause.name = typeof error.name === 'string' && error.name !== '' ? error.name : 'Error';
  if (error.$fault === 'client' || error.$fault === 'server') cause.$fault = error.$fault;
  const metadata = (
    typeof error.$metadata === 'object' && error.$metadata !== null ? error.$metadata : {}
  ) as {
    httpStatusCode?: unknown;
    requestId?: unknown;
  };
  cause.$metadata = {
    ...(typeof metadata.httpStatusCode === 'number' ? { httpStatusCode: metadata.httpStatusCode } : {}),
    ...(typeof metadata.requestId === 'string' ? { requestId: metadata.requestId } : {}),
  };
  // The stack names the SDK error as the message does (it was captured under the name `Error`).
  cause.stack = `${cause.name}: ${cause.message}`;
  return cause as SageMakerSdkCause;
}

/**
 * Replaces, in place, an AWS SDK exception kept as `error.cause` by its {@link plainCause};
 * returns `error`. For errors built by shared code (the transport's network errors) that keep
 * the SDK's error as their cause.
 */
export function detachSdkCause<E extends Error>(error: E, secrets: Record<string, string> | undefined): E {
  if (!isSdkError(error.cause)) return error;
  Object.defineProperty(error, 'cause', {
    value: plainCause(error.cause, secrets),
    writable: true,
    configurable: true,
    enumerable: Object.getOwnPropertyDescriptor(error, 'cause')?.enumerable ?? false,
  });
  return error;
}
