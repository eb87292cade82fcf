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
import { type WsWire, wsServer } from '../cases/wire/servers.js';
import { ManualClock } from './helpers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 100 ms of PCM s16le at 16 kHz. */
const CHUNK = 3_200;

/**
 * A Deepgram server that answers CloseStream with one final covering all the audio it got, or,
 * while `failing()` says so, closes with 1011 (a retryable failure) instead.
 */
function deepgram(failing: () => boolean): Promise<WsWire> {
  return wsServer((ws) => {
    let bytes = 0;
    ws.on('message', (data, binary) => {
      if (binary) {
        bytes += (data as Buffer).byteLength;
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      if (failing()) {
        ws.close(1011, 'internal error');
        return;
      }
      ws.send(
        JSON.stringify({
          type: 'Results',
          start: 0,
          duration: bytes / 32_000,
          is_final: true,
          speech_final: true,
          channel: { alternatives: [{ transcript: 'book a table', confidence: 1 }] },
        }),
      );
      ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r' }));
      ws.close(1000);
    });
  });
}

const dg = (url: string) =>
  ({ kind: 'deepgram', baseUrl: url, apiKey: ['test', 'key'].join('-'), stt: { model: 'nova-3' } }) as const;

let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
});

/** `speechMs` of audio paced on `clock` (a chunk every 100 ms), then `lagMs` before it ends. */
async function* speak(clock: ManualClock, speechMs: number, lagMs: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < speechMs; at += 100) {
    if (at > 0) clock.advance(100);
    yield new Uint8Array(CHUNK);
  }
  clock.advance(lagMs);
}

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
