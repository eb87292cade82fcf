import { describe, expect, it } from 'vitest';
import { lazy } from '../../src/internal/lazy.js';

describe('lazy', () => {
  it('builds nothing until the first call, then returns the same value without building again', () => {
    let builds = 0;
    const value = lazy(() => {
      builds++;
      return { id: builds };
    });
    expect(builds).toBe(0);
    const first = value();
    expect(first).toEqual({ id: 1 });
    expect(value()).toBe(first);
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it('caches undefined as a value (built once)', () => {
    let builds = 0;
    const value = lazy(() => {
      builds++;
      return undefined;
    });
    expect(value()).toBe(undefined);
    expect(value()).toBe(undefined);
    expect(builds).toBe(1);
  });

  it('caches nothing when the build throws: the next call builds again', () => {
    let builds = 0;
    const value = lazy(() => {
      builds++;
      if (builds === 1) throw new RangeError('first build fails');
      return 'built';
    });
    expect(() => value()).toThrow(RangeError);
    expect(value()).toBe('built');
    expect(value()).toBe('built');
    expect(builds).toBe(2);
  });
});
