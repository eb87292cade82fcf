/**
 * A call made while the AWS SDK is still loading is not charged for the load: its attempt's
 * clock (time to first chunk, the first-chunk deadline, the latency sample) starts once the
 * adapter's code is loaded (ProviderAdapter.ready). The SDK module is replaced by a stub whose
 * load ends when the test says, and the router runs on a FakeClock: no sleeps.
 */
import { describe, expect, it, vi } from 'vitest';
import { AbortError, AllProvidersFailedError, createRouter, TimeoutError } from '../../../src/index.js';
import { createSageMakerAdapter } from '../../../src/providers/sagemaker/adapter.js';
import { until } from '../cartesia/helpers.js';
import { FakeClock } from '../elevenlabs/helpers.js';
import { credentials } from './helpers.js';
import { messages, sageMaker } from './sdk-stub.js';

const sdk = await vi.hoisted(async () => (await import('./sdk-stub.js')).sdkStub());
vi.mock('@aws-sdk/client-sagemaker-runtime', async () =>
  (await import('./sdk-stub.js')).stubSageMakerSdk(sdk),
);

/** Reads a chat stream to its end: its text, or the error it ended with. */
async function read(stream: AsyncIterable<{ type: string; text?: string }>): Promise<string[] | unknown> {
  const texts: string[] = [];
  try {
    for await (const event of stream) if (event.type === 'text-delta') texts.push(event.text!);
    return texts;
  } catch (error) {
    return error;
  }
}

describe('a call made while the AWS SDK is still loading', () => {
  it('waits for the load outside its clock: no deadline runs during the load, the sample leaves it out, and the deadline counts from the load', async () => {
    const clock = new FakeClock();
    const router = createRouter(sageMaker, { clock });
    const firstChunks: number[] = [];
    router.on('first-chunk', (e) => firstChunks.push(e.timeToFirstChunkMs));
    try {
      await until(() => sdk.loads === 1, 'the SDK load started');
      // Three calls while the SDK loads: one that answers in time, one late, one aborted.
      const onTime = router.chat({ messages, model: 'fast' });
      const late = router.chat({ messages, model: 'fast' });
      const stop = new AbortController();
      const stopped = router.chat({ messages, model: 'fast', signal: stop.signal });
      const reads = [read(onTime), read(late), read(stopped)];
      // The SDK takes 1000 ms to load, more than the 300 ms first-chunk deadline: no timer runs.
      clock.advance(1000);
      expect(clock.pending).toBe(0);
      stop.abort();
      expect(await reads[2]).toBeInstanceOf(AbortError);

      sdk.release();
      await until(() => sdk.answers.length === 2, 'both calls reached the endpoint');
      // 299 ms after the load: the first answers, under its deadline.
      clock.advance(299);
      sdk.answers[0]!();
      expect(await reads[0]).toEqual(['Table for two.']);
      const result = await onTime.result;
      expect(result.attempts.map((a) => [a.provider, a.outcome, a.timeToFirstChunkMs])).toEqual([
        ['sm', 'success', 299],
      ]);
      expect(firstChunks).toEqual([299]);
      const stats = router.stats().providers.find((p) => p.provider === 'sm')!;
      expect([stats.samples, stats.ewmaMs]).toEqual([1, 299]);

      // 300 ms after the load: the second one's deadline fires (counted from the load, not the call).
      clock.advance(1);
      const error = await reads[1];
      expect(error).toBeInstanceOf(AllProvidersFailedError);
      const attempt = (error as AllProvidersFailedError).attempts[0]!;
      expect(TimeoutError.isInstance(attempt.error) && attempt.error.phase).toBe('first-chunk');
      expect(attempt.durationMs).toBe(300);
      sdk.answers[1]!();
      // The aborted call never reached the endpoint.
      expect(sdk.answers.length).toBe(2);
    } finally {
      await router.close();
    }
  });

  it('once the SDK is loaded, ready() is undefined: a call waits for nothing', async () => {
    sdk.release();
    const adapter = createSageMakerAdapter({
      name: 'sm',
      region: 'eu-west-1',
      endpointName: 'llm',
      credentials,
      chat: { payload: 'jsonlines' },
    });
    const loading = adapter.ready?.();
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(adapter.ready?.()).toBeUndefined();
    // An adapter with its own stream client and no bidirectional stream loads nothing.
    const own = createSageMakerAdapter({
      name: 'own',
      region: 'eu-west-1',
      endpointName: 'llm',
      chat: { payload: 'jsonlines' },
      streamClient: { invoke: () => Promise.reject(new Error('unused')) },
    });
    expect(own.ready?.()).toBeUndefined();
    await adapter.close?.();
  });
});
