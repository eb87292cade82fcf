/**
 * Fault kind: a wrong constructor argument accepted, failing every call later. The plugin
 * classes are made once at agent start-up; an argument no call can use (no router, no options,
 * a sample rate the router refuses) must be a TypeError naming it there, not a raw engine error
 * ("Cannot read properties of undefined") or an APIError on every turn of the session.
 */
import { describe, expect, it } from 'vitest';
import type { Router } from '../../src/index.js';
import * as voxroute from '../../src/livekit/index.js';
import { twoProviders } from '../helpers/mock-router.js';

describe('voxroute/livekit constructors check their arguments', () => {
  it('a missing or wrong router is a TypeError naming `router`', () => {
    for (const router of [undefined, null, {}, 'router']) {
      const bad = router as unknown as Router;
      expect(() => new voxroute.TTS(bad, { voice: 'agent' })).toThrow(
        /^voxroute\.TTS\(router, options\): router must be a voxroute router \(createRouter\(\)\), got /,
      );
      expect(() => new voxroute.STT(bad)).toThrow(/^voxroute\.STT\(router, options\): router must be/);
      expect(() => new voxroute.LLM(bad, { model: 'fast' })).toThrow(
        /^voxroute\.LLM\(router, options\): router must be/,
      );
    }
  });

  it('TTS with no options names options.voice, not a property read of undefined', async () => {
    const { router } = await twoProviders();
    const make = () => new (voxroute.TTS as unknown as new (r: Router) => voxroute.TTS)(router);
    expect(make).toThrow(TypeError);
    expect(make).toThrow('voxroute.TTS: options.voice (a logical voice of the router config) is required');
  });

  it('a sample rate the router refuses (below 8000, above 192000, not a number) is refused at construction', async () => {
    const { router } = await twoProviders();
    for (const [rate, shown] of [
      [1, '1'],
      [7_999, '7999'],
      [192_001, '192001'],
      [0, '0'],
      ['24000', 'string'],
    ] as const) {
      const sampleRate = rate as unknown as number;
      expect(() => new voxroute.TTS(router, { voice: 'agent', sampleRate })).toThrow(
        `voxroute.TTS: options.sampleRate must be a whole number of Hz from 8000 to 192000, got ${shown}`,
      );
      expect(() => new voxroute.STT(router, { sampleRate })).toThrow(
        `voxroute.STT: options.sampleRate must be a whole number of Hz from 8000 to 192000, got ${shown}`,
      );
    }
    expect(new voxroute.TTS(router, { voice: 'agent', sampleRate: 8_000 }).sampleRate).toBe(8_000);
    expect(new voxroute.STT(router, { sampleRate: 192_000 }).model).toBe('stt');
  });
});
