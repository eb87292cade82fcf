import type { ProviderAdapter } from '../types.js';
import { createAnthropicChat } from './chat.js';
import { createEndpoint } from './http.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, type AnthropicAdapterOptions } from './options.js';

/**
 * The adapter of one Anthropic provider (Anthropic's Messages API, or a gateway that mirrors it:
 * PROTOCOLS.md 6b, 6.4): chat only, present when `options.chat` is. Requests go to
 * `{baseUrl}/v1/messages` through `attempt.transport`, with `attempt.signal` and
 * `attempt.deadlines`; the adapter never retries, falls back or keeps scores.
 *
 * @example
 * ```ts
 * const adapter = createAnthropicAdapter({ name: 'claude', apiKey: key, chat: { maxTokens: 512 } });
 * for await (const event of adapter.chat!.chat({ model: 'claude-haiku-4-5', messages }, attempt)) { ... }
 * ```
 * @throws ConfigError when `baseUrl` is not an http(s) URL or holds credentials, or `apiKey` is empty.
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): ProviderAdapter {
  const endpoint = createEndpoint(options);
  return {
    name: options.name,
    ...(options.chat
      ? { chat: createAnthropicChat(endpoint, options.chat.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS) }
      : {}),
  };
}
