/**
 * A streaming STT provider's samples are its transcription lag (stt-transcription-lag.test.ts):
 * a failure of one before its first transcript is timed the same way, from when the router had
 * read the caller's audio (or the attempt's start, if later) to the failure, not from the
 * attempt's start (which counts how long the user spoke). Otherwise the `latency` strategy's
 * objective, J = (1 - r) x E[X] + r x (failMs + E[Y]), ranks a provider by the length of the
 * utterance it failed on. Deepgram is this test's own loopback WebSocket server; the router's
 * clock is the test's, and the audio is paced on it (100 ms of audio per 100 ms).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router, type RouterConfig } from '../../src/index.js';
import { ManualClock } from './helpers.js';
import { deepgramServer as deepgram, deepgramProvider as dg, FORMAT, speak } from './stt-paced.js';

let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

async function run(router: Router, audio: AsyncIterable<Uint8Array>, route: string) {
  const call = router.stt({ audio, format: FORMAT, route });
  const texts: string[] = [];
  for await (const e of call) texts.push(e.text);
  return { texts, result: await call.result };
}

describe('a streaming STT failure before its first transcript', () => {
  // The same history but for the length of the utterance 'one' failed on: the next call's order
  // is the same (a failure 100 ms after the audio, whatever was said before it).
  for (const speechMs of [300, 6_000]) {
    it(`is timed from the audio read, not the attempt's start (failed after ${speechMs} ms of speech)`, async () => {
      let failOne = false;
      const one = await deepgram(() => failOne);
      const two = await deepgram(() => false);
      const clock = new ManualClock();
      router = createRouter(
        {
          providers: { one: dg(one.url), two: dg(two.url) },
          routes: {
            stt: { providers: ['one', 'two'], strategy: 'latency', connectTimeoutMs: 60_000 },
            onlyOne: { capability: 'stt', providers: ['one'], connectTimeoutMs: 60_000 },
            onlyTwo: { capability: 'stt', providers: ['two'], connectTimeoutMs: 60_000 },
          },
        } satisfies RouterConfig,
        { clock },
      );
      // 'one' lags 100 ms after the audio, 'two' 200 ms: 'one' goes first.
      for (let i = 0; i < 6; i++) {
        await run(router, speak(clock, 500, 100), 'onlyOne');
        await run(router, speak(clock, 500, 200), 'onlyTwo');
      }
      expect(
        (await run(router, speak(clock, 500, 100), 'stt')).result.attempts.map((a) => a.provider),
      ).toEqual(['one']);
      // 'one' fails 100 ms after the audio; 'two' takes over.
      failOne = true;
      const failed = await run(router, speak(clock, speechMs, 100), 'stt');
      expect(failed.texts).toEqual(['book a table']);
      expect(failed.result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['one', 'failed'],
        ['two', 'success'],
      ]);
      failOne = false;
      expect(
        (await run(router, speak(clock, 500, 100), 'stt')).result.attempts.map((a) => a.provider),
      ).toEqual(['one']);
      // Some answers of 'one' later, still first.
      for (let i = 0; i < 6; i++) await run(router, speak(clock, 500, 100), 'onlyOne');
      const next = await run(router, speak(clock, 500, 100), 'stt');
      expect(next.result.attempts.map((a) => a.provider)).toEqual(['one']);
    });
  }
});

describe("a streaming STT attempt cut by the caller's own first-chunk deadline", () => {
  it('is a bound of its lag after the audio, not of the speech before the deadline', async () => {
    const one = await deepgram(() => false);
    const two = await deepgram(() => false);
    const clock = new ManualClock();
    router = createRouter(
      {
        providers: { one: dg(one.url), two: dg(two.url) },
        routes: {
          stt: { providers: ['one', 'two'], strategy: 'latency', connectTimeoutMs: 60_000 },
          onlyOne: { capability: 'stt', providers: ['one'], connectTimeoutMs: 60_000 },
          onlyTwo: { capability: 'stt', providers: ['two'], connectTimeoutMs: 60_000 },
        },
      } satisfies RouterConfig,
      { clock },
    );
    for (let i = 0; i < 6; i++) {
      await run(router, speak(clock, 500, 100), 'onlyOne');
      await run(router, speak(clock, 500, 200), 'onlyTwo');
    }
    // A caller's 1 s deadline cuts 'one' while the user still speaks (3 s): 'two' takes over.
    const call = router.stt({ audio: speak(clock, 3_000, 100), format: FORMAT, firstChunkTimeoutMs: 1_000 });
    for await (const _ of call) {
      // drained
    }
    const cut = await call.result;
    expect(cut.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['one', 'failed'],
      ['two', 'success'],
    ]);
    const stats = router.stats().providers.find((p) => p.provider === 'one')!;
    expect(stats.callerTimeouts).toBe(1);
    // The cut came as the audio was read (its wait past the audio is 0 ms), not 1 s into the
    // attempt: no bound above its 100 ms lag, and it keeps its place.
    expect(stats.lowerBoundMs).toBe(0);
    expect((await run(router, speak(clock, 500, 100), 'stt')).result.attempts.map((a) => a.provider)).toEqual(
      ['one'],
    );
  });
});
