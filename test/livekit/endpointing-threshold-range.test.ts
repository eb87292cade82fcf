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

describe('endpointing.thresholdDb must be below full scale', () => {
  it('the loudest possible frame is 0 dBFS', () => {
    const fullScale = new Uint8Array(320);
    for (let i = 1; i < 320; i += 2) fullScale[i] = 0x80; // -32768, little-endian
    expect(levelDb(fullScale)).toBe(0);
  });

  it('0 and above are a RangeError naming the option, from the Endpointer and the STT constructor', async () => {
    const { router } = await twoProviders();
    for (const thresholdDb of [0, 10]) {
      const message = `endpointing.thresholdDb must be a finite dBFS level below 0 (full scale; default -45), got ${thresholdDb}`;
      expect(() => new Endpointer(16_000, { thresholdDb })).toThrow(new RangeError(message));
      expect(() => new voxroute.STT(router, { endpointing: { thresholdDb } })).toThrow(message);
    }
    expect(() => new Endpointer(16_000, { thresholdDb: -0.5 })).not.toThrow();
  });
});
