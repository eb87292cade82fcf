import { describe, expect, it } from 'vitest';
import { TurnAudio } from '../../src/pipeline/turn-audio.js';
import { deferred } from '../helpers/deferred.js';

/** A source whose chunks the test hands out one by one; `returned` tells whether its `finally` ran. */
function source() {
  const waiting: Array<ReturnType<typeof deferred<number | Error>>> = [];
  const state = { returned: false, pulls: 0 };
  const give = (value: number | Error) => {
    const next = waiting.shift();
    if (!next) throw new Error('nothing is waiting');
    next.resolve(value);
  };
  async function* chunks(): AsyncGenerator<number> {
    try {
      for (;;) {
        state.pulls++;
        const d = deferred<number | Error>();
        waiting.push(d);
        const value = await d.promise;
        if (value instanceof Error) throw value;
        if (value < 0) return;
        yield value;
      }
    } finally {
      state.returned = true;
    }
  }
  const until = async (pulls: number) => {
    while (state.pulls < pulls || waiting.length === 0) await new Promise((r) => setImmediate(r));
  };
  return { iterable: chunks(), give, state, until };
}

async function take<T>(iterable: AsyncIterable<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  if (n === 0) return out;
  for await (const item of iterable) {
    out.push(item);
    if (out.length === n) break;
  }
  return out;
}

describe('TurnAudio', () => {
  it('stop() ends the read at once, leaves the source open, and remaining() starts with the read in flight', async () => {
    const src = source();
    const audio = new TurnAudio(src.iterable);
    let ended = false;
    const read = audio.read(() => {
      ended = true;
    });
    const first = read.next();
    await src.until(1);
    src.give(1);
    expect(await first).toEqual({ done: false, value: 1 });
    const second = read.next(); // in flight: the source waits for chunk 2
    await src.until(2);
    expect(audio.stop()).toBe(true);
    expect(await second).toEqual({ done: true, value: undefined });
    expect(ended).toBe(false);
    expect(src.state.returned).toBe(false);
    const rest = take(audio.remaining(), 2);
    src.give(2); // the read in flight at the stop
    await src.until(3);
    src.give(3);
    expect(await rest).toEqual([2, 3]);
    expect(src.state.returned).toBe(true); // leaving remaining() early returns the source
  });

  it('a read returned before any stop returns the source; remaining() is then empty', async () => {
    const src = source();
    const audio = new TurnAudio(src.iterable);
    const read = audio.read(() => {});
    const first = read.next();
    await src.until(1);
    src.give(1);
    await first;
    await read.return(undefined);
    expect(src.state.returned).toBe(true);
    expect(audio.stop()).toBe(false);
    expect(await take(audio.remaining(), 5)).toEqual([]);
  });

  it("a read returned while the caller's next() is pending ends at once: the source is returned, remaining() is empty", async () => {
    // A muted microphone: its pending next() never settles, its return() answers at once.
    let returns = 0;
    const pulled = deferred();
    const pending: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          pulled.resolve();
          return new Promise<IteratorResult<number>>(() => {});
        },
        return: () => {
          returns++;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const audio = new TurnAudio(pending);
    const read = audio.read(() => {});
    const inFlight = read.next();
    await pulled.promise;
    expect(await read.return(undefined)).toEqual({ done: true, value: undefined });
    expect(await inFlight).toEqual({ done: true, value: undefined });
    expect(returns).toBe(1);
    expect(audio.stop()).toBe(false);
    expect(await take(audio.remaining(), 5)).toEqual([]);
  });

  it('audio that ended: ended() is called, stop() does nothing, remaining() is empty', async () => {
    const src = source();
    const audio = new TurnAudio(src.iterable);
    let ended = 0;
    const reading = take(
      audio.read(() => {
        ended++;
      }),
      10,
    );
    await src.until(1);
    src.give(4);
    await src.until(2);
    src.give(-1);
    expect(await reading).toEqual([4]);
    expect(ended).toBe(1);
    expect(audio.stop()).toBe(false);
    expect(audio.stopped).toBe(false);
    expect(await take(audio.remaining(), 5)).toEqual([]);
  });

  it('never read (finish() first): remaining() is the whole source', async () => {
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    const audio = new TurnAudio(three());
    audio.finish();
    expect(await take(audio.remaining(), 5)).toEqual([1, 2, 3]);
  });

  it('the read in flight at the stop failing: remaining() throws its error', async () => {
    const src = source();
    const audio = new TurnAudio(src.iterable);
    const read = audio.read(() => {});
    const first = read.next();
    await src.until(1);
    audio.stop();
    expect(await first).toEqual({ done: true, value: undefined });
    const boom = new Error('microphone unplugged');
    src.give(boom);
    await expect(take(audio.remaining(), 1)).rejects.toBe(boom);
  });

  it("the next turn takes the caller's iterator over: no chunk lost, the previous remaining() is then empty", async () => {
    const src = source();
    const first = new TurnAudio(src.iterable);
    const read1 = first.read(() => {});
    const a = read1.next();
    await src.until(1);
    src.give(1);
    expect(await a).toEqual({ done: false, value: 1 });
    const inFlight = read1.next(); // the source waits for chunk 2
    await src.until(2);
    first.stop();
    expect(await inFlight).toEqual({ done: true, value: undefined });

    // Turn 2 reads turn 1's remaining audio; it stops after one chunk, too.
    const second = new TurnAudio(first.remaining());
    const read2 = second.read(() => {});
    const b = read2.next();
    src.give(2); // the read that was in flight at turn 1's stop
    expect(await b).toEqual({ done: false, value: 2 });
    const inFlight2 = read2.next();
    await src.until(3);
    second.stop();
    expect(await inFlight2).toEqual({ done: true, value: undefined });
    expect(await take(first.remaining(), 5)).toEqual([]); // handed over, not read twice

    // Turn 3, from turn 2's remaining audio, reads the caller's iterator itself.
    const third = new TurnAudio(second.remaining());
    const reading = take(
      third.read(() => {}),
      10,
    );
    src.give(3);
    await src.until(4);
    src.give(4);
    await src.until(5);
    src.give(-1);
    expect(await reading).toEqual([3, 4]);
    expect(src.state.pulls).toBe(5); // one pull per chunk and one for the end: nothing read ahead or twice
    expect(await take(second.remaining(), 5)).toEqual([]);
  });

  it('a turn that never read hands the whole source on; one whose audio ended hands on nothing', async () => {
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    const unread = new TurnAudio(three());
    unread.finish();
    const next = new TurnAudio(unread.remaining());
    expect(
      await take(
        next.read(() => {}),
        5,
      ),
    ).toEqual([1, 2, 3]);
    expect(await take(next.remaining(), 5)).toEqual([]);
    const after = new TurnAudio(next.remaining());
    let ended = 0;
    expect(
      await take(
        after.read(() => {
          ended++;
        }),
        5,
      ),
    ).toEqual([]);
    expect(ended).toBe(1);
  });
});
