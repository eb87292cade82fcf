const ERR_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'INVALID_AUTH',
  403: 'INSUFFICIENT_PERMISSIONS',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  429: 'TOO_MANY_REQUESTS',
};

/**
 * The body of an error answer in Deepgram's legacy REST shape (deepgram-js-sdk
 * `ErrorResponseLegacyError`): `{"err_code", "err_msg", "request_id"}`. The `err_code` strings
 * per status are the mock's own choice (Deepgram's full list is not documented); 5xx give
 * `'INTERNAL_SERVER_ERROR'`.
 *
 * @example
 * ```ts
 * deepgramErrorBody(401, 'Invalid credentials.', 'req-1');
 * // { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: 'req-1' }
 * ```
 */
export function deepgramErrorBody(
  status: number,
  message: string,
  requestId: string,
): { err_code: string; err_msg: string; request_id: string } {
  const code = ERR_CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'REQUEST_FAILED');
  return { err_code: code, err_msg: message, request_id: requestId };
}

/**
 * A deterministic request id in UUID form for the `call`-th request of an endpoint, e.g.
 * `00000000-0000-4000-8000-000000000003` for call 3 (Deepgram's ids are UUIDs).
 */
export function deepgramRequestId(call: number): string {
  return `00000000-0000-4000-8000-${String(call).padStart(12, '0')}`;
}
