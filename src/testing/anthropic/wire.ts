import type { MockErrorEvent } from '../mock-script.js';

const encoder = new TextEncoder();

/**
 * One named SSE event as Anthropic sends it: `event: <name>\ndata: <json>\n\n`, where the event
 * name equals the JSON `type` (PROTOCOLS.md 6b).
 */
export function sseEvent(name: string, payload: unknown): Uint8Array {
  return encoder.encode(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
}

/** Anthropic's error `type` for an HTTP status (PROTOCOLS.md 6b; Anthropic API errors page). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/**
 * The error body Anthropic sends with an HTTP error status:
 * `{"type":"error","error":{"type","message"},"request_id"}` (PROTOCOLS.md 6b).
 *
 * @example
 * ```ts
 * anthropicErrorBody(529, 'Overloaded', 'req_1'); // {type:'error', error:{type:'overloaded_error', message:'Overloaded'}, request_id:'req_1'}
 * ```
 */
export function anthropicErrorBody(status: number, message: string, requestId: string): unknown {
  return { type: 'error', error: { type: anthropicErrorType(status), message }, request_id: requestId };
}

/**
 * The frame of an error inside a 200 stream: `event: error` with
 * `{"type":"error","error":{"type","message"}}`; then the stream ends (PROTOCOLS.md 6b).
 * Defaults: type `'overloaded_error'`, message `'Overloaded'`. Anthropic errors have no `code`:
 * `event.code` is not sent.
 */
export function errorEventFrames(event: MockErrorEvent = {}): Uint8Array[] {
  return [
    sseEvent('error', {
      type: 'error',
      error: { type: event.type ?? 'overloaded_error', message: event.message ?? 'Overloaded' },
    }),
  ];
}
