/**
 * Options of the chat capability of an Anthropic provider (`POST {baseUrl}/v1/messages`).
 * - `maxTokens`: `max_tokens` sent when a request sets no `maxTokens` (the Messages API requires
 *   the field), in tokens. Default: {@link ANTHROPIC_DEFAULT_MAX_TOKENS} (1024).
 */
export interface AnthropicChatOptions {
  maxTokens?: number;
}

/**
 * Options of {@link createAnthropicAdapter}.
 * - `name`: the provider's name in the config (errors and attempts carry it).
 * - `baseUrl`: the API root WITHOUT `/v1`, as the official client's `baseURL`
 *   (`https://api.anthropic.com`, the default, or a gateway's root); the adapter appends
 *   `/v1/messages`. A trailing slash is ignored, a query string is kept.
 * - `apiKey`: the key, sent only to `baseUrl`'s origin.
 * - `authHeader`: `'x-api-key'` (default: `x-api-key: <key>`, Anthropic) or `'bearer'`
 *   (`Authorization: Bearer <key>`, for gateways such as n1n.ai's native Claude route; PROTOCOLS.md 6b).
 * - `anthropicVersion`: the `anthropic-version` header. Default `'2023-06-01'`.
 * - `headers`: extra request headers (e.g. `anthropic-beta`). They never replace the auth or
 *   version headers, nor the adapter's `content-type` and `accept`.
 * - `chat`: chat is created only when present (the only capability of this kind).
 */
export interface AnthropicAdapterOptions {
  name: string;
  baseUrl?: string;
  apiKey: string;
  authHeader?: 'x-api-key' | 'bearer';
  anthropicVersion?: string;
  headers?: Record<string, string>;
  chat?: AnthropicChatOptions;
}

/** Default API root: `https://api.anthropic.com` (without `/v1`; PROTOCOLS.md 6b). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** Default `anthropic-version` header (PROTOCOLS.md 6b). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Default `max_tokens`, in tokens, when neither the request nor the options set one. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/**
 * Anthropic continues a trailing assistant message as the same reply: it is a prefill (the
 * Messages API docs, "Prefill Claude's response"; PROTOCOLS.md 6b lists the roles). Known without
 * loading the adapter's code: the router reads it when it plans a call.
 */
export const ANTHROPIC_CONTINUES_ASSISTANT_MESSAGE = true;
