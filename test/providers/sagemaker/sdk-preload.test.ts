/**
 * The AWS SDK's load is not inside a call's first-chunk deadline: createRouter starts it (for a
 * config with a SageMaker provider, without waiting), so a call made once it is loaded has its
 * whole deadline. The SDK module is replaced by a stub whose load ends when the test says, and
 * the router runs on a FakeClock.
 */
import { describe, expect, it, vi } from 'vitest';
import { AllProvidersFailedError, createRouter, TimeoutError } from '../../../src/index.js';
import { loadSageMakerSdk } from '../../../src/providers/sagemaker/sdk-client.js';
import { until } from '../cartesia/helpers.js';
import { FakeClock } from '../elevenlabs/helpers.js';
import { messages, sageMaker } from './sdk-stub.js';

const sdk = await vi.hoisted(async () => (await import('./sdk-stub.js')).sdkStub());
vi.mock('@aws-sdk/client-sagemaker-runtime', async () =>
  (await import('./sdk-stub.js')).stubSageMakerSdk(sdk),
);

/** Lets pending imports and promise jobs run: a few turns of the event loop. */
async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('the AWS SDK is loaded when the router is made, not inside the first call', () => {
  // In this order: the stub module is loaded once per file.
  it('createRouter for a config without SageMaker does not load the SDK', async () => {
    const router = createRouter({
      providers: { oa: { kind: 'openai', apiKey: 'sk-test', chat: { models: { fast: 'gpt-4o-mini' } } } },
      routes: { chat: { providers: ['oa'] } },
    });
    await turns();
    expect(sdk.loads).toBe(0);
    await router.close();
  });

  it('createRouter starts the load; the 1000 ms it takes run no deadline, and the first call has its whole 300 ms', async () => {
    const clock = new FakeClock();
    const router = createRouter(sageMaker, { clock });
    try {
      // Started by createRouter, before any call.
      await until(() => sdk.loads === 1, 'the SDK load started');
      // The SDK takes 1000 ms to load: no timer is running meanwhile.
      clock.advance(1000);
      expect(clock.pending).toBe(0);
      sdk.release();
      await loadSageMakerSdk();
      expect(sdk.clients).toBe(0);

      // The first call: its first chunk comes 299 ms after it started, under the 300 ms deadline.
      const first = router.chat({ messages, model: 'fast' });
      const texts: string[] = [];
      const reading = (async () => {
        for await (const event of first) if (event.type === 'text-delta') texts.push(event.text);
      })();
      await until(() => sdk.answers.length === 1, 'the first call reached the endpoint');
      clock.advance(299);
      sdk.answers[0]!();
      await reading;
      expect(texts).toEqual(['Table for two.']);
      expect((await first.result).attempts.map((a) => [a.provider, a.outcome])).toEqual([['sm', 'success']]);
      expect([sdk.loads, sdk.clients]).toEqual([1, 1]);

      // The control: the same deadline does fire when the endpoint is 300 ms late.
      const second = router.chat({ messages, model: 'fast' });
      const failing = (async () => {
        for await (const _ of second) {
        }
      })().catch((error: unknown) => error);
      await until(() => sdk.answers.length === 2, 'the second call reached the endpoint');
      clock.advance(300);
      const error = await failing;
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const attempt = (error as AllProvidersFailedError).attempts[0]!;
      expect(attempt.provider).toBe('sm');
      expect(TimeoutError.isInstance(attempt.error) && attempt.error.phase).toBe('first-chunk');
      sdk.answers[1]!();
    } finally {
      await router.close();
    }
  });
});
