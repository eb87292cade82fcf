import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMockOptions,
  openAiCompatibleHandlers,
  startMockServer,
} from '../../../src/testing/index.js';
import { describeConformance } from './suite.js';

const apiKey = 'sk-openai-conformance-0123456789';
const chat: OpenAiCompatibleMockOptions['chat'] = {
  text: 'Your table is booked.',
  usage: { prompt_tokens: 25, completion_tokens: 4 },
};

describeConformance({
  name: 'openai-compatible chat',
  capability: 'chat',
  apiKey,
  async startMock({ script, delay }) {
    const server = await startMockServer({
      provider: createOpenAiCompatibleMock({ apiKey, script, delay, chat }),
    });
    return { baseUrl: `${server.url}/v1`, requests: server.requests, close: () => server.close() };
  },
  msw({ script, delay }) {
    const mock = createOpenAiCompatibleMock({ apiKey, script, delay, chat });
    const baseUrl = 'https://llm.conformance.test/v1';
    return {
      baseUrl,
      handlers: openAiCompatibleHandlers({ baseUrl, provider: mock }),
      requests: mock.requests,
    };
  },
  makeAdapter: (baseUrl) =>
    createOpenAiAdapter({ name: 'ec2', kind: 'openai-compatible', baseUrl, apiKey, chat: {} }),
  request: () => ({ model: 'llama-8b', messages: [{ role: 'user', content: 'Book a table.' }] }),
  // The role-only chunk, then the first content delta.
  chunksToFirstOutput: 2,
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
