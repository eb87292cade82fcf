import { withAcceptIdentity } from '../../transport/content-coding.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AttemptContext } from '../types.js';
import { parseBaseUrl, urlUnder } from './base-url.js';
import { type HttpErrorReader, readingHttpErrors } from './http-error-verdict.js';

/**
 * Where and how the HTTP requests of one provider go (used by the OpenAI-compatible and
 * Cartesia adapters): every request URL is built from `baseUrl` by {@link endpointUrl}, so the
 * API key in `headers` only ever reaches
 * `baseUrl`'s origin. (The transport never follows redirects, so a 3xx cannot carry it away.)
 */
export interface HttpEndpoint {
  /** Provider name (the key in the config's `providers`). */
  provider: string;
  /** The parsed base URL, e.g. `http://10.0.0.5:8000/v1`. */
  base: URL;
  /** Headers sent with every request: the custom ones, then `Authorization` when a key is set. */
  headers: Record<string, string>;
}

/**
 * Checks `baseUrl` and builds the shared headers.
 * `Authorization: Bearer <apiKey>` is set only when `apiKey` is a non-empty string, and it
 * replaces any `authorization` header given in `headers` (names compared case-insensitively).
 * Throws ConfigError (path `providers.<name>.baseUrl`) when `baseUrl` is not an http(s) URL.
 */
export function createHttpEndpoint(
  provider: string,
  baseUrl: string,
  apiKey: string | undefined,
  headers: Record<string, string> | undefined,
): HttpEndpoint {
  const base = parseBaseUrl(provider, baseUrl);
  const shared: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (apiKey && name.toLowerCase() === 'authorization') continue;
    shared[name] = value;
  }
  if (apiKey) shared.authorization = `Bearer ${apiKey}`;
  return { provider, base, headers: shared };
}

/**
 * The URL of `path` (e.g. `'/chat/completions'`) under the endpoint's base URL:
 * `http://h:8000/v1` and `http://h:8000/v1/` both give `http://h:8000/v1/chat/completions`;
 * the base URL's query string is kept. The result always has the base URL's origin.
 */
export function endpointUrl(endpoint: HttpEndpoint, path: `/${string}`): string {
  return urlUnder(endpoint.base, path).href;
}

/**
 * Headers of one request: the endpoint's shared headers with `own` on top, where `own` are
 * the headers the adapter itself needs (`content-type`, `accept`). Header names of `own`
 * replace shared ones case-insensitively; `authorization` from the endpoint always stays.
 */
export function requestHeaders(endpoint: HttpEndpoint, own: Record<string, string>): Record<string, string> {
  const ownNames = new Set(Object.keys(own).map((n) => n.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(endpoint.headers)) {
    if (!ownNames.has(name.toLowerCase())) out[name] = value;
  }
  return { ...out, ...own };
}

/**
 * POSTs `body` to `url` through the attempt's transport with the endpoint's headers (and
 * `accept-encoding: identity` unless they set `accept-encoding`), the
 * attempt's signal and deadlines. Resolves with the 2xx response; throws what the transport
 * throws (ProviderError for an error status, TimeoutError, AbortError), an error status read
 * by `request.errors` when given (the provider's own reading of its error bodies, see
 * `readHttpError`).
 */
export function postToEndpoint(
  endpoint: HttpEndpoint,
  attempt: AttemptContext,
  url: string,
  request: { contentType: string; accept: string; body: string | Uint8Array; errors?: HttpErrorReader },
): Promise<HttpResponse> {
  const response = attempt.transport.request({
    provider: endpoint.provider,
    method: 'POST',
    url,
    headers: postHeaders(endpoint, request.contentType, request.accept),
    body: request.body,
    signal: attempt.signal,
    onErrorStatus: attempt.onErrorStatus,
    deadlines: attempt.deadlines,
  });
  return request.errors ? readingHttpErrors(response, request.errors) : response;
}

/**
 * Per endpoint, the headers of its POSTs by content type and accept: built once, frozen (the
 * transport only reads them), shared by every request of that pair. They hold
 * `accept-encoding: identity` unless the endpoint's headers name `accept-encoding`.
 */
const postHeaderCache = new WeakMap<HttpEndpoint, Map<string, Map<string, Record<string, string>>>>();

function postHeaders(endpoint: HttpEndpoint, contentType: string, accept: string): Record<string, string> {
  let byType = postHeaderCache.get(endpoint);
  if (!byType) {
    byType = new Map();
    postHeaderCache.set(endpoint, byType);
  }
  let byAccept = byType.get(contentType);
  if (!byAccept) {
    byAccept = new Map();
    byType.set(contentType, byAccept);
  }
  let headers = byAccept.get(accept);
  if (!headers) {
    // No compressed body: `accept-encoding: identity`, unless the config's headers set one.
    headers = Object.freeze(
      withAcceptIdentity(requestHeaders(endpoint, { 'content-type': contentType, accept })),
    );
    byAccept.set(accept, headers);
  }
  return headers;
}
