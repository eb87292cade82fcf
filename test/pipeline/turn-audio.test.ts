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
});
