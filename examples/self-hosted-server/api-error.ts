import type { ServerResponse } from 'node:http';

/** The `type` values this server puts in an OpenAI-style error body (OpenAI uses `invalid_request_error` for 4xx, 401 included). */
export type ApiErrorType = 'invalid_request_error' | 'server_error';

/** Fields of an {@link ApiError}, besides its status and message. */
export interface ApiErrorOptions {
  type?: ApiErrorType;
  /** Machine-readable code, e.g. `'invalid_api_key'`, `'engine_not_installed'`. Default: null. */
  code?: string | null;
  /** The request field at fault, e.g. `'voice'`. Default: null. */
  param?: string | null;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
}

/**
 * An HTTP error answered as an OpenAI-style JSON body
 * `{"error":{"message","type","param","code"}}` (PROTOCOLS.md 2.1, OAS `ErrorResponse`).
 * Route handlers throw it; the server turns it into the response. The message never holds a
 * request header or the API key.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ApiErrorType;
  readonly code: string | null;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = options.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  /** The JSON body: `{"error":{"message","type","param","code"}}`. */
  toBody(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/**
 * Writes `error` as the whole response (status, its headers, JSON body). When headers were
 * already sent (a stream had started), it destroys the response instead, so the client sees a
 * truncated stream rather than a clean end.
 */
export function sendApiError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Writes `value` as a JSON response with `status` (default 200). */
export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
