import type { ProviderAdapter } from '../types.js';
import { createAnthropicAdapter } from './adapter.js';
import type { ResolvedAnthropicConfig } from './config.js';

/**
 * The adapter of a configured provider of kind `anthropic`: only wire settings are passed on
 * (the logical model map stays with the router). Throws ConfigError as
 * {@link createAnthropicAdapter} does.
 */
export function anthropicAdapterFromConfig(name: string, config: ResolvedAnthropicConfig): ProviderAdapter {
  return createAnthropicAdapter({
    name,
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    authHeader: config.authHeader,
    anthropicVersion: config.anthropicVersion,
    headers: config.headers,
    ...(config.chat ? { chat: { maxTokens: config.chat.maxTokens } } : {}),
  });
}
