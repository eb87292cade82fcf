import { describe, expect, it } from 'vitest';
import { createManualDelay, realDelay } from '../../src/testing/index.js';
import { resolvePerCall } from '../../src/testing/per-call.js';

describe('createManualDelay', () => {
  it('holds each wait until released, oldest first, and records every request', async () => {
    const time = createManualDelay();
    const signal = new AbortController().signal;
    const order: string[] = [];
    const first = time.delay(300, signal).then(() => order.push('300 done'));
    const second = time.delay(20, signal).then(() => order.push('20 done'));
    expect(time.pending).toBe(2);
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(await time.release()).toBe(300);
    await first;
    expect(order).toEqual(['300 done']);
    expect(await time.release()).toBe(20);
    await second;
    expect(order).toEqual(['300 done', '20 done']);
    expect(time.requested).toEqual([300, 20]);
    expect(time.pending).toBe(0);
  });

  it('release() waits for the next wait to be asked for', async () => {
    const time = createManualDelay();
    const released = time.release();
    const wait = time.delay(45, new AbortController().signal);
    expect(await released).toBe(45);
    await wait;
    expect(time.pending).toBe(0);
  });

  it('whenWaiting() resolves once a wait is in progress, without ending it', async () => {
    const time = createManualDelay();
    const watching = time.whenWaiting();
    let ended = false;
    const wait = time.delay(70, new AbortController().signal).then(() => {
      ended = true;
    });
    expect(await watching).toBe(70);
    expect(ended).toBe(false);
    expect(time.pending).toBe(1);
    expect(await time.release()).toBe(70);
    await wait;
    expect(ended).toBe(true);
  });

  it('an aborted signal ends its wait without a release', async () => {
    const time = createManualDelay();
    const controller = new AbortController();
    const wait = time.delay(1000, controller.signal);
    expect(time.pending).toBe(1);
    controller.abort();
    await wait;
    expect(time.pending).toBe(0);
  });
});

describe('realDelay', () => {
  it('ends at once when the signal is already aborted', async () => {
    const started = performance.now();
    await realDelay(60_000, AbortSignal.abort());
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('resolvePerCall', () => {
  const request = {} as never;
  it('one value for every call, an array one per call (undefined past the end), or a function', () => {
    expect(resolvePerCall('x', { call: 5, request })).toBe('x');
    expect(resolvePerCall(['a', 'b'], { call: 2, request })).toBe('b');
    expect(resolvePerCall(['a', 'b'], { call: 3, request })).toBeUndefined();
    expect(resolvePerCall(({ call }: { call: number }) => `call ${call}`, { call: 4, request })).toBe(
      'call 4',
    );
    expect(resolvePerCall(undefined, { call: 1, request })).toBeUndefined();
  });
});
