import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/index.js';
import { demoTurn, expectFallbackAtEveryStage, readBack, rms } from './voice-turn.js';

describe('the demo voice turn on the testing kit mocks', () => {
  it('goes stt -> chat -> tts over real sockets, skipping the failing server at every stage', async () => {
    const { turn, mode } = await demoTurn(true);
    expect(mode).toBe('mock');
    expect(turn.transcript).toBe(
      'And so my fellow Americans ask not what your country can do for you ask what you can do for your country.',
    );
    expect(turn.reply).toBe(
      'You asked what you can do for your country. Start by voting, volunteering, and helping a neighbour.',
    );
    expectFallbackAtEveryStage(turn);
    const wav = await readBack(encodeWav(turn.format, turn.audio));
    expect(wav.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    expect(wav.data.byteLength).toBe(turn.audio.byteLength);
    expect(rms(wav.data)).toBeGreaterThan(0.01);
  });
});
