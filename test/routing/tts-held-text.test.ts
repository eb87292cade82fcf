/**
 * The timer of streamed text held by the clause splitter (TtsProgress, HELD_TEXT_FLUSH_MS): on
 * the injected clock, set only while text that may be spoken is held, one timer however many
 * tokens come, cleared when the text ends, fails or is stopped; none for a text given whole
 * (the hot path of bench/overhead.ts) or a streamed sentence released at once.
 */
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/abort-error.js';
import { TtsProgress } from '../../src/routing/tts-progress.js';
import { FakeClock } from '../transport/fake-clock.js';

/** A text stream fed by the test: `push` a token, `end()` or `fail()` it. */
class Feed implements AsyncIterable<string> {
  #queue: Array<IteratorResult<string> | Error> = [];
  #wake: (() => void) | undefined;
  push(token: string): void {
    this.#put({ value: token, done: false });
  }
  end(): void {
    this.#put({ value: undefined, done: true });
  }
  fail(error: Error): void {
    this.#put(error);
  }
  #put(item: IteratorResult<string> | Error): void {
    this.#queue.push(item);
    this.#wake?.();
  }
  [Symbol.asyncIterator](): AsyncIterator<string> {
    return {
      next: async () => {
        while (this.#queue.length === 0) await new Promise<void>((r) => (this.#wake = r));
        const item = this.#queue.shift()!;
        if (item instanceof Error) throw item;
        return item;
      },
      return: async () => ({ value: undefined, done: true }),
    };
  }
}

/** Lets the progress read what was fed (a few turns of the microtask queue, no timer). */
async function read(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A progress over `feed` on `clock`, reading (its first clause asked for); the clauses it gives, as they come. */
function start(feed: Feed, clock: FakeClock) {
  const progress = new TtsProgress(feed, 'en', [], undefined, clock);
  const clauses: string[] = [];
  const done = (async () => {
    for (let i = 0; ; i++) {
      const s = await progress.sentence(i);
      if (s === undefined) return;
      clauses.push(s);
    }
  })();
  return { progress, clauses, done };
}

describe('the timer of held streamed text', () => {
  it('none for a text given whole (the overhead bench: one short sentence)', async () => {
    const clock = new FakeClock();
    const progress = new TtsProgress(
      'Your table is booked for seven thirty.',
      undefined,
      [],
      undefined,
      clock,
    );
    expect(await progress.sentence(0)).toBe('Your table is booked for seven thirty.');
    expect(await progress.sentence(1)).toBeUndefined();
    expect(clock.created).toBe(0);
  });

  it('none for a streamed sentence released at once, nor for one word held (maybe half of one)', async () => {
    const clock = new FakeClock();
    const feed = new Feed();
    const { progress, clauses, done } = start(feed, clock);
    feed.push('Your table is booked for seven thirty.');
    await read();
    expect(clauses).toEqual(['Your table is booked for seven thirty.']);
    feed.push(' Sure');
    await read();
    expect([progress.holdTimerSet, clock.created]).toEqual([false, 0]);
    feed.end();
    await done;
    expect(clauses).toEqual(['Your table is booked for seven thirty.', ' Sure']);
    expect(clock.created).toBe(0);
  });

  it('one timer for tokens that keep coming; its deadline moves with each token; cleared at the end', async () => {
    const clock = new FakeClock();
    const feed = new Feed();
    const { progress, clauses, done } = start(feed, clock);
    // A token every 50 ms; the last, ' you', at 300 ms.
    for (const token of ['Let', ' me', ' look', ' that', ' up', ' for', ' you']) {
      feed.push(token);
      await read();
      clock.advance(50);
    }
    // Set once, at ' me' (50 ms), due at 450 ms.
    expect([clauses, progress.holdTimerSet, clock.created, clock.pending]).toEqual([[], true, 1, 1]);
    // At 450 ms it fires early and is set again for the rest of the wait (300 + 400 ms).
    clock.advance(699 - 350);
    await read();
    expect([clauses, clock.created, clock.pending]).toEqual([[], 2, 1]);
    clock.advance(1);
    await read();
    expect(clauses).toEqual(['Let me look that up for ']);
    expect([progress.holdTimerSet, clock.pending]).toEqual([false, 0]);
    feed.push('.');
    feed.end();
    await done;
    expect(clauses).toEqual(['Let me look that up for ', 'you.']);
    // "you." (under the minimum) was held, with a timer, until the end of the text cleared it.
    expect([clock.created, clock.pending]).toEqual([3, 0]);
  });

  it('cleared when the text ends, fails, or is stopped (barge-in) while text is held', async () => {
    for (const how of ['end', 'fail', 'stop'] as const) {
      const clock = new FakeClock();
      const feed = new Feed();
      const { progress, done } = start(feed, clock);
      feed.push("I'll meet you at 5 p.m.");
      await read();
      expect([how, progress.holdTimerSet, clock.pending]).toEqual([how, true, 1]);
      if (how === 'end') feed.end();
      if (how === 'fail') feed.fail(new Error('the LLM failed'));
      if (how === 'stop') progress.stop();
      await done.catch(() => {});
      expect([how, progress.holdTimerSet, clock.pending]).toEqual([how, false, 0]);
      if (how === 'stop') await expect(progress.sentence(0)).rejects.toBeInstanceOf(AbortError);
    }
  });
});
