/**
 * A call leaves nothing on the router's long-lived close signal once it ends: no listener, and
 * no AbortSignal.any() over it (on Node 20 each such signal leaves an entry on its sources
 * that only goes with them, a memory growth per call). Counted with wrappers around
 * EventTarget's addEventListener/removeEventListener and AbortSignal.any.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRouter } from '../../src/index.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const CALLS = 50;

afterEach(() => vi.restoreAllMocks());

/** Audio with one stray byte: no whole sample, so the call ends without a provider. */
async function* strayByte(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([7]);
}
/** Audio whose first whole sample comes after a turn of the event loop (the wait is taken). */
async function* lateStrayByte(): AsyncGenerator<Uint8Array> {
  await Promise.resolve();
  yield new Uint8Array([7]);
}

describe('stt() calls hold nothing on the router close signal', () => {
  it(`after ${CALLS} calls with a caller signal: no listener left, AbortSignal.any never used`, async () => {
    const r = createRouter({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9',
          stt: { model: 'w', streaming: false },
        },
      },
      routes: { stt: { providers: ['a'], strategy: 'priority' } },
    });
    // Net 'abort' listeners per signal, counted from here on.
    const net = new Map<EventTarget, number>();
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    vi.spyOn(EventTarget.prototype, 'addEventListener').mockImplementation(function (
      this: EventTarget,
      type,
      ...rest
    ) {
      if (type === 'abort') net.set(this, (net.get(this) ?? 0) + 1);
      return add.call(this, type, ...rest);
    });
    vi.spyOn(EventTarget.prototype, 'removeEventListener').mockImplementation(function (
      this: EventTarget,
      type,
      ...rest
    ) {
      if (type === 'abort') net.set(this, (net.get(this) ?? 0) - 1);
      return remove.call(this, type, ...rest);
    });
    const any = vi.spyOn(AbortSignal, 'any');
    // The first call joins the router's calls in progress: one listener on the close signal, for good.
    const warm = r.stt({ audio: strayByte(), format: FORMAT });
    for await (const _ of warm) expect.unreachable();
    const longLived = new Set(net.keys());
    const before = new Map(net);
    const signals: AbortSignal[] = [];
    for (let i = 0; i < CALLS; i++) {
      const signal = new AbortController().signal;
      signals.push(signal);
      const s = r.stt({ audio: i % 2 ? strayByte() : lateStrayByte(), format: FORMAT, signal });
      for await (const _ of s) expect.unreachable();
      expect(await s.result).toEqual(expect.objectContaining({ provider: '' }));
    }
    expect(any).toHaveBeenCalledTimes(0);
    for (const target of longLived) expect(net.get(target)).toBe(before.get(target));
    for (const signal of signals) expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await r.close();
  });
});
