import { createAnthropicAdapter } from '../../../src/providers/anthropic/index.js';
import { anthropicHandlers, createAnthropicMock, startMockServer } from '../../../src/testing/index.js';
import { describeConformance } from './suite.js';

const apiKey = 'sk-ant-conformance-0123456789';
const reply = { text: 'Your table is booked.', usage: { input_tokens: 25, output_tokens: 4 } };

describeConformance({
  name: 'anthropic chat',
  capability: 'chat',
  apiKey,
  async startMock({ script, delay }) {
    const server = await startMockServer({
      provider: createAnthropicMock({ apiKey, script, delay, reply }),
    });
    return { baseUrl: server.url, requests: server.requests, close: () => server.close() };
  },
  msw({ script, delay }) {
    const mock = createAnthropicMock({ apiKey, script, delay, reply });
    const baseUrl = 'https://api.anthropic.test';
    return { baseUrl, handlers: anthropicHandlers({ baseUrl, provider: mock }), requests: mock.requests };
  },
  makeAdapter: (baseUrl) => createAnthropicAdapter({ name: 'claude', baseUrl, apiKey, chat: {} }),
  request: () => ({
    model: 'claude-haiku-4-5',
    messages: [
      { role: 'system', content: 'You book tables.' },
      { role: 'user', content: 'Book a table.' },
    ],
  }),
  // message_start, content_block_start, ping, the first text_delta.
  chunksToFirstOutput: 4,
  expected: {
    items: [
      { type: 'text-delta', text: 'Your ' },
      { type: 'text-delta', text: 'table ' },
      { type: 'text-delta', text: 'is ' },
      { type: 'text-delta', text: 'booked.' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 25, outputTokens: 4 } },
    ],
  },
});
