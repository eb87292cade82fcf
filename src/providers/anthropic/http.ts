import { withAcceptIdentity } from '../../transport/content-coding.js';
import type { HttpResponse } from '../../transport/types.js';
import { parseBaseUrl, requireApiKey, urlUnder } from '../shared/base-url.js';
import type { AttemptContext } from '../types.js';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_VERSION, type AnthropicAdapterOptions } from './options.js';

/**
 * Where and how the requests of one Anthropic provider go. The only URL is
 * {@link AnthropicEndpoint.messagesUrl}, built from `baseUrl`, so the key only reaches that origin
 * (the transport never follows redirects).
 */
export interface AnthropicEndpoint {
  /** Provider name (the key in the config's `providers`). */
  provider: string;
  /** `{baseUrl}/v1/messages`, e.g. `https://api.anthropic.com/v1/messages`. */
  messagesUrl: string;
  /** Headers sent with every request: the custom ones, then the auth and version headers. */
  headers: Record<string, string>;
}

/** Header names the adapter owns; custom headers of these names are dropped (case-insensitive). */
const OWN_HEADERS = new Set(['x-api-key', 'authorization', 'anthropic-version', 'content-type', 'accept']);

/**
 * Checks `baseUrl` and builds the endpoint:
 * - URL: `baseUrl` (default `https://api.anthropic.com`; trailing slashes dropped, query kept)
 *   plus `/v1/messages` (PROTOCOLS.md 6b: the official client's `baseURL` excludes `/v1`);
 * - headers: the custom `headers` except those the adapter owns, then `x-api-key: <apiKey>`
 *   (or `authorization: Bearer <apiKey>` with `authHeader: 'bearer'`), `anthropic-version`
 *   (default `2023-06-01`), `content-type: application/json`, `accept: text/event-stream` and
 *   `accept-encoding: identity` (unless the custom headers set `accept-encoding`).
 * Throws ConfigError (path `providers.<name>.baseUrl`) when `baseUrl` is not an http(s) URL or
 * holds credentials, and (path `providers.<name>.apiKey`) when `apiKey` is empty.
 */
export function createEndpoint(options: AnthropicAdapterOptions): AnthropicEndpoint {
  const provider = options.name;
  const base = parseBaseUrl(provider, options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL);
  const apiKey = requireApiKey(provider, options.apiKey);
  const messagesUrl = urlUnder(base, '/v1/messages');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  if (options.authHeader === 'bearer') headers.authorization = `Bearer ${apiKey}`;
  else headers['x-api-key'] = apiKey;
  headers['anthropic-version'] = options.anthropicVersion ?? ANTHROPIC_VERSION;
  headers['content-type'] = 'application/json';
  headers.accept = 'text/event-stream';
  // No compressed body, unless the custom headers ask for one.
  withAcceptIdentity(headers);
  return { provider, messagesUrl: messagesUrl.href, headers };
}

/**
 * POSTs the JSON `body` to the endpoint's messages URL through the attempt's transport, with
 * the endpoint's headers, the attempt's signal and deadlines. Resolves with the 2xx response;
 * throws what the transport throws: ProviderError for an error status (Anthropic's
 * `{"type":"error","error":{type,message}}` body read into `providerType` and the message;
 * `retryAfterMs` from `retry-after`; 429/5xx/529 retryable, 400/401/403/404 not), TimeoutError,
 * AbortError. No message holds the key.
 */
export function postMessages(
  endpoint: AnthropicEndpoint,
  attempt: AttemptContext,
  body: string,
): Promise<HttpResponse> {
  return attempt.transport.request({
    provider: endpoint.provider,
    method: 'POST',
    url: endpoint.messagesUrl,
    headers: endpoint.headers,
    body,
    signal: attempt.signal,
    onErrorStatus: attempt.onErrorStatus,
    deadlines: attempt.deadlines,
  });
}
