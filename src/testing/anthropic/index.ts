export type { AnthropicMockUsage, AnthropicReply, MockToolUse } from './messages.js';
export type { AnthropicMock, AnthropicMockOptions } from './mock.js';
export { createAnthropicMock } from './mock.js';
export type { AnthropicHandlersOptions } from './msw-handlers.js';
export { anthropicHandlers } from './msw-handlers.js';
