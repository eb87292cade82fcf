/**
 * Fault kind: an option accepted that silently disables the feature. A frame's RMS level is at
 * most 0 dBFS (full scale), so an endpointing `thresholdDb` at or above 0 never sees speech: no
 * utterance starts and the STT transcribes nothing, with no error. It is refused when the
 * plugin is made, as a negative duration is.
 */
import { describe, expect, it } from 'vitest';
import { Endpointer, levelDb } from '../../src/livekit/endpointer.js';
import * as voxroute from '../../src/livekit/index.js';
import { twoProviders } from '../helpers/mock-router.js';

/** 10 ms at 16 kHz of -32768 (little-endian): the loudest possible frame. */
function fullScaleFrame(): Uint8Array {
  const frame = new Uint8Array(320);
  for (let i = 1; i < 320; i += 2) frame[i] = 0x80;
  return frame;
}

describe('endpointing.thresholdDb must be below full scale', () => {
  it('the loudest possible frame is 0 dBFS', () => {
    const fullScale = fullScaleFrame();
    expect(levelDb(fullScale)).toBe(0);
  });

  it('0 and above are a RangeError naming the option, from the Endpointer and the STT constructor', async () => {
    const { router } = await twoProviders();
    for (const thresholdDb of [0, 10]) {
      const message = `endpointing.thresholdDb must be a finite dBFS level below 0 (full scale; default -45), got ${thresholdDb}`;
      expect(() => new Endpointer(16_000, { thresholdDb })).toThrow(new RangeError(message));
      expect(() => new voxroute.STT(router, { endpointing: { thresholdDb } })).toThrow(message);
    }
    // Just below full scale is taken, and a full-scale frame starts an utterance there.
    const fullScale = fullScaleFrame();
    const near = new Endpointer(16_000, { thresholdDb: -0.5 });
    expect(near.push(fullScale)).toEqual({ kind: 'start', audio: [fullScale], startSample: 0 });
  });
});
