import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROGRESS_AFTER_MS, PROGRESS_AFTER_MS_VAR, startProgress } from '../../src/cli/progress.js';

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

  it('waits as long as VOXROUTE_PROGRESS_AFTER_MS says; an invalid value keeps the default', () => {
    const { err, ctx } = context();
    const slow = startProgress({ ...ctx, env: { [PROGRESS_AFTER_MS_VAR]: '5000' } }, 'waiting');
    vi.advanceTimersByTime(4999);
    expect(err).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(err).toEqual(['voxroute: waiting\n']);
    slow.done();
    const odd = startProgress({ ...ctx, env: { [PROGRESS_AFTER_MS_VAR]: '5s' } }, 'odd');
    vi.advanceTimersByTime(PROGRESS_AFTER_MS);
    odd.done();
    expect([PROGRESS_AFTER_MS_VAR, err]).toEqual([
      'VOXROUTE_PROGRESS_AFTER_MS',
      ['voxroute: waiting\n', 'voxroute: odd\n'],
    ]);
  });
});
