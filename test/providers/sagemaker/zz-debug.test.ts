import { setupServer } from 'msw/node';
import { it, expect } from 'vitest';
import { createSageMakerAdapter } from '../../../src/providers/sagemaker/index.js';
import { createSageMakerMock, sageMakerHandlers, sageMakerChatEndpoint } from '../../../src/testing/index.js';
import { attemptOf, credentials } from './helpers.js';

it('debug', async () => {
  const url = 'https://runtime.sagemaker.us-east-1.amazonaws.com';
  const mock = createSageMakerMock({ endpoints: { ep: sageMakerChatEndpoint({ reply: 'Your table is booked.', script: { stallAfterChunks: 2 } }) } });
  const server = setupServer(...sageMakerHandlers({ endpointUrl: url, provider: mock }));
  server.listen();
  const adapter = createSageMakerAdapter({ name: 'sm', region: 'us-east-1', endpointName: 'ep', endpointUrl: url, credentials, chat: { payload: 'openai-chat' } });
  const it = adapter.chat!.chat({ model: 'default', messages: [{ role: 'user', content: 'x' }] }, attemptOf())[Symbol.asyncIterator]();
  const t0 = performance.now();
  const first = await it.next();
  console.log('first', first, performance.now() - t0, mock.requests[0]!.chunksSent);
  await it.return?.();
  console.log('returned', performance.now() - t0);
  const ended = await Promise.race([mock.requests[0]!.ended, new Promise((r) => setTimeout(() => r('timeout'), 3000))]);
  console.log('ended', ended);
  server.close();
  expect(1).toBe(1);
});
