import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSageMakerAdapter } from '../../../src/providers/sagemaker/index.js';
import { createSageMakerMock, sageMakerChatEndpoint, sageMakerHandlers } from '../../../src/testing/index.js';
import { attemptOf, collect, collectUntilError, credentials } from './helpers.js';

const REGIONAL = 'https://runtime.sagemaker.us-west-2.amazonaws.com';
const mock = createSageMakerMock({
  endpoints: {
    llm: sageMakerChatEndpoint({ payload: 'openai-chat', reply: 'Hi from msw.' }),
    c21: sageMakerChatEndpoint({
      payload: 'openai-chat',
      reply: 'Hello world',
      script: { errorEventAfterChunks: 2, errorEvent: { code: 'StreamBroken', message: 'reset' } },
    }),
  },
});
const server = setupServer(...sageMakerHandlers({ endpointUrl: REGIONAL, provider: mock }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

// No endpointUrl: the SDK resolves the regional endpoint, and msw intercepts its node:http request.
const adapter = (endpointName: string) =>
  createSageMakerAdapter({
    name: 'sm',
    region: 'us-west-2',
    endpointName,
    credentials,
    chat: { payload: 'openai-chat' },
  });

describe('SageMaker adapter through msw (the SDK over node:http, intercepted)', () => {
  it('streams chat from the regional endpoint URL', async () => {
    const events = await collect(
      adapter('llm').chat!.chat(
        { model: 'default', messages: [{ role: 'user', content: 'Hi' }] },
        attemptOf(),
      ),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hi ' },
      { type: 'text-delta', text: 'from ' },
      { type: 'text-delta', text: 'msw.' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 3 } },
    ]);
    expect(mock.requests.at(-1)!.url).toBe(`${REGIONAL}/endpoints/llm/invocations-response-stream`);
  });

  it('C21: ModelStreamError (StreamBroken) after output', async () => {
    const { items, error } = await collectUntilError(
      adapter('c21').chat!.chat(
        { model: 'default', messages: [{ role: 'user', content: 'Hi' }] },
        attemptOf(),
      ),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Hello ' }]);
    expect(error).toMatchObject({ providerCode: 'StreamBroken', retryable: true, partialOutput: true });
  });
});
