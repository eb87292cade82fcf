/**
 * A streaming STT provider answers when the speaker pauses, so its time to first transcript is
 * mostly how long the user spoke. The latency model learns the transcription lag instead: from
 * when the router had read the audio up to the transcript's end (`endMs`) to the transcript. A
 * hedge delay learned from those samples does not apply to such a provider (it would hedge every
 * utterance longer than the delay); a fixed one does. Deepgram is this test's own loopback
 * WebSocket server; the router's clock is the test's, and the audio is paced on it (100 ms of
 * audio per 100 ms), as a microphone's is.
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

describe('streaming STT latency samples', () => {
  it('are the transcription lag, whatever the length of the speech', async () => {
    const server = await deepgram();
    const clock = new ManualClock();
    router = createRouter(
      { providers: { dg: dg(server.url) }, routes: { stt: { providers: ['dg'] } } } satisfies RouterConfig,
      { clock },
    );
    const ttfcs: number[] = [];
    for (const [speechMs, lagMs] of [
      [1_000, 150],
      [3_000, 150],
      [2_000, 250],
      [500, 150],
    ] as const) {
      const call = router.stt({ audio: speak(clock, speechMs, lagMs), format: FORMAT });
      const texts: string[] = [];
      for await (const e of call) texts.push(e.text);
      expect(texts).toEqual(['book a table']);
      // The call's own time to first transcript is still the caller's wait.
      ttfcs.push((await call.result).timeToFirstChunkMs);
    }
    expect(ttfcs).toEqual([1_050, 3_050, 2_150, 550]);
    const stats = router.stats().providers.find((p) => p.capability === 'stt')!;
    // Samples of 150, 150, 250 and 150 ms: the speech's 500 to 3,000 ms are in none of them.
    expect(stats.samples).toBe(4);
    expect(stats.p50Ms).toBe(150);
    expect(stats.p99Ms).toBe(250);
  });

  it('do not give a streaming STT route a learned hedge delay; a fixed one still applies', async () => {
    const first = await deepgram();
    const second = await deepgram();
    for (const after of ['auto', 'p95', 400] as const) {
      const clock = new ManualClock();
      router = createRouter(
        {
          providers: { one: dg(first.url), two: dg(second.url) },
          routes: {
            stt: {
              providers: ['one', 'two'],
              strategy: 'priority',
              hedge: { after },
              // The test's clock runs ahead of the loopback handshake: no connect deadline on it.
              connectTimeoutMs: 60_000,
            },
          },
        } satisfies RouterConfig,
        { clock },
      );
      const before = second.connections;
      for (let i = 0; i < 6; i++) {
        const call = router.stt({ audio: speak(clock, 300, 100), format: FORMAT });
        for await (const _ of call) {
          // short utterances: six samples of 100 ms lag
        }
      }
      expect(second.connections - before).toBe(0);
      // A 3-second utterance: a learned delay (100 ms of lag) would hedge it 0.1 s in.
      const call = router.stt({ audio: speak(clock, 3_000, 100), format: FORMAT });
      for await (const _ of call) {
        // drained
      }
      const { attempts } = await call.result;
      expect(attempts.map((a) => [a.provider, a.outcome])).toEqual(
        after === 400
          ? [
              ['one', 'success'],
              ['two', 'aborted'],
            ]
          : [['one', 'success']],
      );
      const stats = router.stats().providers.find((p) => p.provider === 'one')!;
      expect(stats.hedgeAfterMs).toBe(after === 400 ? 400 : undefined);
      await router.close();
      router = undefined;
    }
  });
});
