import { describe, expect, it } from 'vitest';
import {
  expectedTtfcMs,
  MIN_STAGE_DEADLINE_MS,
  stageDeadlines,
  TYPICAL_TTFC_FACTOR,
} from '../../src/pipeline/budget.js';

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

  it('never below twice the stage’s measured median time to first chunk', () => {
    expect(TYPICAL_TTFC_FACTOR).toBe(2);
    // 600 left, TTS expected 200: half of 400 is 200, below 2 x a chat median of 180 = 360.
    expect(stageDeadlines(600, 200, 180)).toEqual({ firstChunkTimeoutMs: 360, hedgeAfterMs: 180 });
    // Half is above twice the median: half wins (800 - 200 = 600, half 300 >= 2 x 120 = 240).
    expect(stageDeadlines(800, 200, 120)).toEqual({ firstChunkTimeoutMs: 300, hedgeAfterMs: 150 });
    // Exactly twice the median: the same either way.
    expect(stageDeadlines(800, 200, 150)).toEqual({ firstChunkTimeoutMs: 300, hedgeAfterMs: 150 });
    // A fractional median rounds the floor up (2 x 90.25 = 180.5 -> 181).
    expect(stageDeadlines(100, 0, 90.25)).toEqual({ firstChunkTimeoutMs: 181, hedgeAfterMs: 90 });
    // A spent budget with a known median: twice the median, not the 50 ms floor.
    expect(stageDeadlines(-500, 120, 140)).toEqual({ firstChunkTimeoutMs: 280, hedgeAfterMs: 140 });
    // A tiny median: the 50 ms floor still holds.
    expect(stageDeadlines(20, 0, 10)).toEqual({ firstChunkTimeoutMs: 50, hedgeAfterMs: 25 });
  });

  it('no measured median (0, or not a finite number): the budget alone decides', () => {
    expect(stageDeadlines(800, 200, 0)).toEqual({ firstChunkTimeoutMs: 300, hedgeAfterMs: 150 });
    expect(stageDeadlines(800, 200, Number.NaN)).toEqual({ firstChunkTimeoutMs: 300, hedgeAfterMs: 150 });
    expect(stageDeadlines(undefined, 200, 500)).toEqual({});
  });
});

describe('expectedTtfcMs', () => {
  const stats = (providers: Array<{ capability: 'chat' | 'tts'; p50Ms?: number }>) =>
    ({ providers }) as unknown as Parameters<typeof expectedTtfcMs>[0];

  it('the lowest measured median of the capability; 0 when none is measured', () => {
    const measured = stats([
      { capability: 'chat', p50Ms: 240 },
      { capability: 'chat', p50Ms: 180 },
      { capability: 'chat' },
      { capability: 'tts', p50Ms: 90 },
    ]);
    expect(expectedTtfcMs(measured, 'chat')).toBe(180);
    expect(expectedTtfcMs(measured, 'tts')).toBe(90);
    expect(expectedTtfcMs(measured, 'stt')).toBe(0);
  });
});
