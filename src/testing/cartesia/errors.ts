import type { MockErrorEvent } from '../mock-script.js';

/** First `Cartesia-Version` whose HTTP error bodies are structured JSON (PROTOCOLS.md 1.1, CDOC-err). */
export const STRUCTURED_ERRORS_SINCE = '2026-03-01';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A title for an HTTP status, e.g. `'Too Many Requests'` for 429. */
export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Request Error');
}

let requestCount = 0;

/** A request id in UUID form, unique within the process (deterministic, no randomness). */
export function mockRequestId(): string {
  requestCount++;
  return `00000000-0000-4000-8000-${requestCount.toString(16).padStart(12, '0')}`;
}

/**
 * The body of an HTTP error in Cartesia's shape for the request's `Cartesia-Version`
 * (PROTOCOLS.md 1.1, CDOC-err): from `2026-03-01` on (dates compare as strings), JSON
 * `{"error_code", "title", "message", "request_id"}`; before, plain text `Title: Message`.
 */
export function httpErrorBody(
  status: number,
  message: string,
  version: string | undefined,
  errorCode: string | null = null,
): unknown {
  const title = statusTitle(status);
  if (version !== undefined && version >= STRUCTURED_ERRORS_SINCE) {
    return { error_code: errorCode, title, message, request_id: mockRequestId() };
  }
  return `${title}: ${message}`;
}

/**
 * An error event of `/tts/sse` or `/tts/websocket` (PROTOCOLS.md 1.1):
 * `{"type":"error","done":true,"status_code","error_code","title","message","request_id"}`, plus
 * `context_id` when given. From `event`: `code` (a number is the `status_code`, a string the
 * `error_code`; default status 500), `message` (default `'mock error event'`), `type` (the
 * `error_code` when `code` is not a string; default `'internal_error'`).
 */
export function errorEventPayload(
  event: MockErrorEvent | undefined,
  contextId?: string | null,
): Record<string, unknown> {
  const status = typeof event?.code === 'number' ? event.code : 500;
  const errorCode = typeof event?.code === 'string' ? event.code : (event?.type ?? 'internal_error');
  const payload: Record<string, unknown> = {
    type: 'error',
    done: true,
    status_code: status,
    error_code: errorCode,
    title: statusTitle(status),
    message: event?.message ?? 'mock error event',
    request_id: mockRequestId(),
  };
  if (contextId !== undefined) payload.context_id = contextId;
  return payload;
}
