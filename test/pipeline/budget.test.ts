import { describe, expect, it } from 'vitest';
import { MIN_STAGE_DEADLINE_MS, stageDeadlines } from '../../src/pipeline/budget.js';

describe('stageDeadlines', () => {
  it('no budget: no per-call deadlines (the routes own)', () => {
    expect(stageDeadlines(undefined, 120)).toEqual({});
  });

  it('half of what is left after the later stages, and a hedge delay of half that', () => {
    expect(stageDeadlines(800, 200)).toEqual({ firstChunkTimeoutMs: 300, hedgeAfterMs: 150 });
    expect(stageDeadlines(301, 0)).toEqual({ firstChunkTimeoutMs: 150, hedgeAfterMs: 75 });
  });

  it('one rule at every level: a budget nearly or wholly spent gives the 50 ms floor, never nothing', () => {
    expect(MIN_STAGE_DEADLINE_MS).toBe(50);
    expect(stageDeadlines(99, 0)).toEqual({ firstChunkTimeoutMs: 50, hedgeAfterMs: 25 });
    expect(stageDeadlines(40, 0)).toEqual({ firstChunkTimeoutMs: 50, hedgeAfterMs: 25 });
    expect(stageDeadlines(-500, 120)).toEqual({ firstChunkTimeoutMs: 50, hedgeAfterMs: 25 });
  });
});
