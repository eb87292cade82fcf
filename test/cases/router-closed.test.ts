import { describe, expect, it } from 'vitest';
import { AbortError, createRouter } from '../../src/index.js';
import { startMockProviders } from '../../src/testing/index.js';
import { PCM24K, readmeConfig } from '../helpers/mock-providers.js';

describe('calls on a closed router (docs/api.md, "Closing a router")', () => {
  it('a call after close() throws AbortError ABORTED "The router was closed"; a second close() resolves', async () => {
    const mocks = await startMockProviders(readmeConfig());
    try {
      const router = createRouter(mocks.config);
      await router.close();
      const failure = async (stream: AsyncIterable<unknown>) => {
        try {
          for await (const _ of stream) return 'yielded';
          return 'ended';
        } catch (error) {
          return error instanceof AbortError ? [error.code, error.message] : error;
        }
      };
      expect(
        await failure(router.chat({ messages: [{ role: 'user', content: 'Hi' }], model: 'fast' })),
      ).toEqual(['ABORTED', 'The router was closed']);
      expect(await failure(router.tts({ text: 'Hello.', voice: 'agent', format: PCM24K }))).toEqual([
        'ABORTED',
        'The router was closed',
      ]);
      await expect(router.close()).resolves.toBeUndefined();
      expect(Object.values(mocks.mocks).flatMap((m) => m.requests)).toEqual([]);
    } finally {
      await mocks.close();
    }
  });
});
