import { ProviderError } from '../errors/index.js';
import { isAuthProviderKind, isRetryableProviderKind } from './classify.js';
import { clipMessage, excerpt } from './excerpt.js';

/**
 * True when an event inside a 200 stream reports an error: its SSE event name is `error`
 * (Anthropic), its JSON has a non-null `error` key (OpenAI, vLLM: `data: {"error":{...}}`), or its
 * JSON is `{"type":"error", ...}` (Anthropic's payload, Cartesia's SSE error event), or
 * `{"object":"error", ...}` (vLLM's flat ErrorResponse, e.g. `{"object":"error","message":"busy",
 * "type":"ServiceUnavailable","code":429}`). Sources: PROTOCOLS.md 2.1 (openai-node treats any
 * data JSON with an `error` key as an error), 6.1, 6b, 1.1.
 *
 * @param json The event's data, JSON-parsed (or the raw string when it was not JSON).
 * @param eventName The SSE `event:` field, if any.
 */
export function isStreamErrorPayload(json: unknown, eventName?: string): boolean {
  if (eventName === 'error') return true;
  if (!isObject(json)) return false;
  return (
    (json.error !== undefined && json.error !== null && json.error !== false) ||
    json.type === 'error' ||
    json.object === 'error'
  );
}

/**
 * The ProviderError of an error reported inside a 200 stream. Reads the shapes
 * `{"error":{"message","type","code"}}` (OpenAI; vLLM with an integer `code`), vLLM's flat
 * `{"object":"error","message","type","code"}`,
 * `{"type":"error","error":{"type","message"}}` (Anthropic), `{"error":"text"}` (with TGI's
 * `error_type`: `{"error":"text","error_type":"overloaded"}`), and Cartesia's
 * flat `{"type":"error","status_code","error_code","title","message"}`; any other payload gives
 * a short excerpt as the message.
 *
 * - `providerType` / `providerCode`: the payload's `type` and `code` (e.g. `'overloaded_error'`,
 *   `'overloaded'`), TGI's `error_type` (`'validation'`, `'generation'`, `'overloaded'`,
 *   `'incomplete_generation'`), or Cartesia's `error_code`;
 * - `retryable`: from {@link isRetryableProviderKind} (overloaded, rate limit, server and API
 *   errors: true; invalid request, authentication, permission, not found: false; an in-band HTTP
 *   status such as vLLM's `code` or Cartesia's `status_code` by its status rule);
 * - `isAuthError`: from {@link isAuthProviderKind} (an in-band 401 or 403, `authentication_error`,
 *   `permission_error`, `invalid_api_key`): the breaker opens at once, as for an HTTP 401;
 * - `status`: undefined (the HTTP status was 200);
 * - `partialOutput`: `hadOutput`.
 *
 * @param provider Provider name (errors name it).
 * @param json The event's data, JSON-parsed (or the raw string when it was not JSON).
 * @param eventName The SSE `event:` field, if any.
 * @param hadOutput True when the stream had already yielded output to the caller.
 */
export function errorFromStreamPayload(
  provider: string,
  json: unknown,
  eventName: string | undefined,
  hadOutput: boolean,
): ProviderError {
  let message: string | undefined;
  let type: string | undefined;
  let code: string | number | undefined;
  let status: number | undefined;
  if (isObject(json)) {
    const error = json.error;
    if (isObject(error)) {
      message = str(error.message) ?? str(error.title);
      type = str(error.type);
      code = codeOf(error.code) ?? codeOf(error.error_code);
    } else if (typeof error === 'string' && error !== '') {
      message = error;
      code = codeOf(json.code);
      // TGI: `{"error":"Input validation error: ...","error_type":"validation"}`.
      type = str(json.error_type);
    }
    message ??= str(json.message) ?? str(json.title) ?? str(json.detail);
    if (type === undefined && json.type !== 'error') type = str(json.type);
    code ??= codeOf(json.error_code) ?? codeOf(json.code);
    if (typeof json.status_code === 'number') status = json.status_code;
    if (code === undefined && status !== undefined) code = status;
  } else if (typeof json === 'string' && json.trim() !== '') {
    message = excerpt(json, 200);
  }
  const kind = [type, code].filter((part) => part !== undefined).join('/');
  const text = `Provider '${provider}' sent an error${eventName === 'error' ? ' event' : ''} mid-stream${kind ? ` (${kind})` : ''}: ${message === undefined ? 'no message' : clipMessage(message)}`;
  return new ProviderError(text, {
    provider,
    retryable: isRetryableProviderKind(type, status ?? code),
    authError: isAuthProviderKind(type, status ?? code),
    partialOutput: hadOutput,
    providerType: type,
    providerCode: code,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function codeOf(value: unknown): string | number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : str(value);
}
