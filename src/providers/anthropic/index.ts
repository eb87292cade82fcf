export { createAnthropicAdapter } from './adapter.js';
export { mapStopReason } from './messages-stream.js';
export type { AnthropicAdapterOptions, AnthropicChatOptions } from './options.js';
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_VERSION,
} from './options.js';
