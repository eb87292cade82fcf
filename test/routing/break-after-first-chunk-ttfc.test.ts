import { describe, expect, it } from 'vitest';
import { routedStream } from '../../src/routing/routed-stream.js';
import type { SpanAttributes, Tracing } from '../../src/telemetry/tracing.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { delta } from './chat-candidates.js';
import { aborted, candidate, fakeRun, ManualClock } from './helpers.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('a caller that breaks out of the loop after the first chunk (barge-in)', () => {
  it("keeps the call's time to first chunk, not its duration, in result and span", async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const a = candidate<ChatEvent>('a', async function* (attempt) {
      await gate;
      yield delta('one');
      yield delta('two');
      await aborted(attempt.signal);
    });
    const spans: SpanAttributes[] = [];
    const tracing: Tracing = {
      startCall: () => ({ event: () => {}, end: (attributes) => void spans.push(attributes) }),
    };
    const stream = routedStream(fakeRun([a], { clock, tracing }));
    const it = stream[Symbol.asyncIterator]();
    const first = it.next();
    await tick();
    // The provider answers 40 ms into the call.
    clock.advance(40);
    release();
    expect((await first).value).toEqual(delta('one'));
    // The caller plays that chunk for 60 ms, then the user talks over it: break.
    clock.advance(60);
    await it.return?.();
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome, x.timeToFirstChunkMs])).toEqual([
      ['a', 'aborted', 40],
    ]);
    expect(result.timeToFirstChunkMs).toBe(40);
    expect(result.durationMs).toBe(100);
    expect(spans.map((s) => [s['voxroute.ttfc_ms'], s['voxroute.duration_ms']])).toEqual([[40, 100]]);
  });
});
