import { describe, expect, it } from 'vitest';
import { Endpointer, levelDb } from '../../src/livekit/endpointer.js';

/** 10 ms of PCM s16le at 16 kHz, every sample `value`. */
function frame(value: number): Uint8Array {
  const out = new Uint8Array(320);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 160; i++) view.setInt16(i * 2, value, true);
  return out;
}
const LOUD = frame(3277); // -20 dBFS
const QUIET = frame(33); // -60 dBFS

describe('Endpointer: the plugin end-of-utterance rule, in audio time', () => {
  it('levelDb gives the RMS level in dBFS', () => {
    expect(levelDb(LOUD)).toBeCloseTo(-20, 2);
    expect(levelDb(QUIET)).toBeCloseTo(-59.9, 1);
    expect(levelDb(new Uint8Array(320))).toBe(Number.NEGATIVE_INFINITY);
  });

  it('starts at the first loud frame with the pre-roll, ends on the frame that completes the silence', () => {
    const e = new Endpointer(16_000, { silenceMs: 50, prerollMs: 30 });
    for (let i = 0; i < 5; i++) expect(e.push(QUIET)).toEqual({ kind: 'idle' });
    const start = e.push(LOUD);
    expect(start.kind === 'start' && [start.audio.length, start.startSample]).toEqual([4, 2 * 160]);
    expect(e.push(LOUD).kind).toBe('continue');
    for (let i = 0; i < 4; i++) expect(e.push(QUIET).kind).toBe('continue');
    expect(e.push(QUIET)).toEqual({ kind: 'end', audio: QUIET, reason: 'silence' });
    expect([e.speaking, e.samples]).toEqual([false, 12 * 160]);
  });

  it('a loud frame resets the silence count; maxUtteranceMs ends a long utterance', () => {
    const e = new Endpointer(16_000, { silenceMs: 30, maxUtteranceMs: 80, prerollMs: 0 });
    expect(e.push(LOUD)).toEqual({ kind: 'start', audio: [LOUD], startSample: 0 });
    const kinds = [QUIET, QUIET, LOUD, QUIET, QUIET, LOUD, LOUD].map((f) => e.push(f).kind);
    expect(kinds).toEqual(['continue', 'continue', 'continue', 'continue', 'continue', 'continue', 'end']);
    expect(e.flush()).toBe(false);
  });

  it('refuses bad options with RangeError', () => {
    expect(() => new Endpointer(16_000, { silenceMs: -1 })).toThrow(RangeError);
    expect(() => new Endpointer(16_000, { thresholdDb: Number.NaN })).toThrow(/thresholdDb/);
  });
});
