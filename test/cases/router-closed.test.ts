import { describe, expect, it } from 'vitest';
import { AbortError, createRouter, voiceTurn } from '../../src/index.js';
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

  it('closed-router-precedence: after close(), a malformed request is AbortError too, from the loop and from result', async () => {
    const mocks = await startMockProviders(readmeConfig());
    try {
      const router = createRouter(mocks.config);
      await router.close();
      const closed = ['ABORTED', 'The router was closed'];
      const outcome = async (stream: AsyncIterable<unknown> & { result: Promise<unknown> }) => {
        const result = stream.result.then(
          () => 'resolved',
          (e: unknown) => (AbortError.isInstance(e) ? [e.code, e.message] : e),
        );
        let loop: unknown = 'ended';
        try {
          for await (const _ of stream) {
            loop = 'yielded';
            break;
          }
        } catch (error) {
          loop = AbortError.isInstance(error) ? [error.code, error.message] : error;
        }
        return [loop, await result];
      };
      const bad = { vioce: 1 } as unknown as Parameters<typeof router.tts>[0];
      expect(await outcome(router.tts(bad))).toEqual([closed, closed]);
      expect(await outcome(router.tts({ text: 'Hi.', voice: 'nope' }))).toEqual([closed, closed]);
      expect(
        await outcome(router.stt({ audio: 'x' as unknown as AsyncIterable<Uint8Array>, format: PCM24K })),
      ).toEqual([closed, closed]);
      expect(await outcome(router.chat({ messages: [], model: 'fast' }))).toEqual([closed, closed]);
      const audio = (async function* () {})();
      expect(
        await outcome(
          voiceTurn(router, { audio, format: PCM24K, messages: [], model: 'fast', voice: 'nope' }),
        ),
      ).toEqual([closed, closed]);
      expect(
        await outcome(
          voiceTurn(router, {
            audio,
            format: PCM24K,
            messages: [],
            model: 'fast',
            voice: 'agent',
            routes: { stt: 'nope' },
          }),
        ),
      ).toEqual([closed, closed]);
      expect(Object.values(mocks.mocks).flatMap((m) => m.requests)).toEqual([]);
    } finally {
      await mocks.close();
    }
  });
});
