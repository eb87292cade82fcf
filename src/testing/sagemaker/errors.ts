import { checkObject, checkString } from '../../internal/arg-checks.js';

/**
 * The SageMaker Runtime error type the emulator names in `x-amzn-errortype` for an HTTP
 * status (SageMaker Runtime API reference; the modeled errors of aws-sdk-js-v3's
 * client-sagemaker-runtime): 400 `ValidationError`, 401
 * `UnrecognizedClientException`, 403 `AccessDeniedException`, 424 `ModelError`, 429
 * `ModelNotReadyException` (the service's only 429: the SDK throws its modeled class,
 * `$fault: 'client'`), 500 `InternalFailure`, 503 `ServiceUnavailable`, 530
 * `InternalDependencyException`; other 4xx `ValidationError`, other 5xx `InternalFailure`.
 * AWS's common `ThrottlingException` comes with status 400: script it as
 * `{ failStatus: 400, errorType: 'ThrottlingException' }`.
 */
export function sageMakerErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'UnrecognizedClientException';
    case 403:
      return 'AccessDeniedException';
    case 424:
      return 'ModelError';
    case 429:
      return 'ModelNotReadyException';
    case 503:
      return 'ServiceUnavailable';
    case 530:
      return 'InternalDependencyException';
    default:
      return status >= 500 ? 'InternalFailure' : 'ValidationError';
  }
}

/**
 * An HTTP error answer as SageMaker Runtime sends one (restJson1, as aws-sdk-js-v3 reads it):
 * `x-amzn-errortype: <type>` (the SDK reads the type from this header first), a request id,
 * and a JSON body `{"message": ...}`; a `ModelError` also carries `OriginalStatusCode` and
 * `OriginalMessage`. `body` replaces the JSON body when given (a string is sent as it is).
 * @throws TypeError naming the argument when `type` or `message` is not a string, `options` is
 *   not an object or its `requestId` not a string.
 */
export function sageMakerErrorResponse(
  status: number,
  type: string,
  message: string,
  options: { body?: unknown; retryAfter?: string; requestId: string },
): Response {
  const call = 'sageMakerErrorResponse(status, type, message, options)';
  checkString(`${call}: type`, type);
  checkString(`${call}: message`, message);
  checkObject(`${call}: options`, 'an object ({ requestId, body?, retryAfter? })', options);
  checkString(`${call}: options.requestId`, options.requestId);
  let text: string;
  if (options.body !== undefined) {
    text = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  } else {
    const body: Record<string, unknown> = { message };
    if (type === 'ModelError') {
      body.OriginalStatusCode = 500;
      body.OriginalMessage = message;
    }
    text = JSON.stringify(body);
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-amzn-errortype': type,
    'x-amzn-requestid': options.requestId,
  };
  if (options.retryAfter !== undefined) headers['retry-after'] = options.retryAfter;
  return new Response(text, { status, headers });
}
