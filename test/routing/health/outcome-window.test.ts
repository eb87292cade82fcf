import { describe, expect, it } from 'vitest';
import { OutcomeWindow } from '../../../src/routing/health/outcome-window.js';

describe('OutcomeWindow', () => {
  it('keeps at most `size` outcomes, dropping the oldest with its failure count', () => {
    const w = new OutcomeWindow(3, 1000);
    w.push(0, true);
    w.push(1, true);
    w.push(2, false);
    expect([w.calls, w.failures, w.rate]).toEqual([3, 2, 2 / 3]);
    w.push(3, false);
    expect([w.calls, w.failures, w.rate]).toEqual([3, 1, 1 / 3]);
  });

  it('drops outcomes older than maxAgeMs; one exactly maxAgeMs old stays', () => {
    const w = new OutcomeWindow(10, 1000);
    w.push(0, true);
    w.push(500, false);
    w.prune(1000);
    expect([w.calls, w.failures]).toEqual([2, 1]);
    w.prune(1001);
    expect([w.calls, w.failures]).toEqual([1, 0]);
    w.prune(1501);
    expect([w.calls, w.failures, w.rate]).toEqual([0, 0, 0]);
  });

  it('clear forgets everything', () => {
    const w = new OutcomeWindow(5, 1000);
    w.push(0, true);
    w.clear();
    expect([w.calls, w.failures, w.rate]).toEqual([0, 0, 0]);
  });
});
