import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_AFTER_MS, startProgress } from '../../src/cli/progress.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function context() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    ctx: { version: 'x', stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
  };
}

describe('startProgress', () => {
  it('prints nothing for a step that ends within a second', () => {
    const { out, err, ctx } = context();
    const p = startProgress(ctx, 'probing');
    p.update('probing a (1/2)');
    vi.advanceTimersByTime(PROGRESS_AFTER_MS - 1);
    p.done();
    vi.advanceTimersByTime(10_000);
    expect([PROGRESS_AFTER_MS, out, err]).toEqual([1000, [], []]);
  });

  it('prints the current text on stderr after a second, then every new text, and stops at done()', () => {
    const { out, err, ctx } = context();
    const p = startProgress(ctx, 'probing');
    p.update('probing a (1/2)');
    vi.advanceTimersByTime(PROGRESS_AFTER_MS);
    p.update('probing b (2/2)');
    p.done();
    p.update('after done');
    expect(out).toEqual([]);
    expect(err).toEqual(['voxroute: probing a (1/2)\n', 'voxroute: probing b (2/2)\n']);
  });
});
