import { describe, expect, it } from 'vitest';
import type { TimeoutPhase } from '../../src/errors/index.js';
import { PhaseDeadlines } from '../../src/transport/phase-deadlines.js';
import type { Deadlines } from '../../src/transport/types.js';
import { FakeClock } from './fake-clock.js';

function setup(deadlines: Deadlines, observesConnect = true) {
  const clock = new FakeClock();
  const expired: [TimeoutPhase, number, number][] = [];
  const tracker = new PhaseDeadlines(clock, deadlines, observesConnect, (phase, ms) =>
    expired.push([phase, ms, clock.now()]),
  );
  return { clock, expired, tracker };
}

describe('PhaseDeadlines', () => {
  it('raises connect when no connection is ready in time', () => {
    const { clock, expired } = setup({ connectMs: 100, headersMs: 1000 });
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['connect', 100, 100]]);
  });

  it('does not enforce connect where the wire cannot observe it (fetch)', () => {
    const { clock, expired } = setup({ connectMs: 100, headersMs: 1000 }, false);
    clock.advance(999);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['headers', 1000, 1000]]);
  });

  it('raises headers, then first-chunk, in turn as each phase is reached late', () => {
    const a = setup({ connectMs: 100, headersMs: 300, firstByteMs: 500 });
    a.tracker.markConnected();
    a.clock.advance(300);
    expect(a.expired).toEqual([['headers', 300, 300]]);

    const b = setup({ connectMs: 100, headersMs: 300, firstByteMs: 500 });
    b.tracker.markConnected();
    b.clock.advance(200);
    b.tracker.markHeaders();
    b.clock.advance(300);
    expect(b.expired).toEqual([['first-chunk', 500, 500]]);
  });

  it('raises total even while chunks keep arriving', () => {
    const { clock, expired, tracker } = setup({ idleMs: 100, totalMs: 1000 });
    tracker.markHeaders();
    tracker.markFirstByte();
    for (let t = 0; t < 20; t++) {
      clock.advance(60);
      tracker.activity();
    }
    expect(expired).toEqual([['total', 1000, 1000]]);
  });

  it('idle: each chunk pushes the deadline back, without creating a timer per chunk', () => {
    const { clock, expired, tracker } = setup({ idleMs: 100 });
    tracker.markHeaders();
    tracker.markFirstByte();
    const before = clock.created;
    for (let i = 0; i < 1000; i++) tracker.activity();
    expect(clock.created).toBe(before);
    for (let t = 0; t < 10; t++) {
      clock.advance(99);
      tracker.activity();
    }
    expect(expired).toEqual([]);
    // About one timer per idle period (re-armed when it fires early), not one per chunk.
    expect(clock.created - before).toBeLessThanOrEqual(10);
    clock.advance(100);
    expect(expired).toEqual([['idle', 100, 1090]]);
  });

  it('idle is not armed before the first byte when a first-byte deadline is set', () => {
    const { clock, expired, tracker } = setup({ idleMs: 100, firstByteMs: 1000 });
    tracker.markHeaders();
    clock.advance(900);
    expect(expired).toEqual([]);
    tracker.markFirstByte();
    clock.advance(100);
    expect(expired).toEqual([['idle', 100, 1000]]);
  });

  it('idle counts from the first byte, not from the headers, also with no first-byte deadline', () => {
    // The wait for the first byte is the router's first-chunk deadline's then.
    const { clock, expired, tracker } = setup({ idleMs: 100 });
    clock.advance(500);
    tracker.markHeaders();
    clock.advance(10_000);
    expect(expired).toEqual([]);
    tracker.markFirstByte();
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['idle', 100, 10_600]]);
  });

  it('startIdle(): an answer already owed counts as idle before the first byte; the first-byte deadline still applies', () => {
    const { clock, expired, tracker } = setup({ idleMs: 100, firstByteMs: 1000 });
    tracker.markHeaders();
    clock.advance(50);
    tracker.startIdle();
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['idle', 100, 150]]);
    const late = setup({ idleMs: 5000, firstByteMs: 1000 });
    late.tracker.markHeaders();
    late.tracker.startIdle();
    late.clock.advance(1000);
    expect(late.expired).toEqual([['first-chunk', 1000, 1000]]);
  });

  it('idle does not fire while paused for backpressure, and restarts on resume', () => {
    const { clock, expired, tracker } = setup({ idleMs: 100 });
    tracker.markHeaders();
    tracker.markFirstByte();
    tracker.setPaused(true);
    clock.advance(10_000);
    expect(expired).toEqual([]);
    tracker.setPaused(false);
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual([['idle', 100, 10_100]]);
  });

  it('stop() clears the timer: nothing fires afterwards', () => {
    const { clock, expired, tracker } = setup({ headersMs: 100, totalMs: 200 });
    tracker.stop();
    expect(clock.pending).toBe(0);
    clock.advance(1000);
    expect(expired).toEqual([]);
  });

  it('no deadline, no timer', () => {
    const { clock } = setup({});
    expect(clock.created).toBe(0);
  });
});
