import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/index.js';
import { demoTurn, expectFallbackAtEveryStage, readBack, rms } from '../e2e/voice-turn.js';

describe('the demo voice turn on the real engines (espeak-ng, pocketsphinx)', () => {
  it('transcribes real speech, replies, speaks the reply, and skips the failing server', async () => {
    const { turn, mode } = await demoTurn(false);
    expect(mode).toBe('engines');
    expect(turn.transcript.toLowerCase()).toContain('country');
    expect(turn.reply).toBe(
      'You asked what you can do for your country. Start by voting, volunteering, and helping a neighbour.',
    );
    expectFallbackAtEveryStage(turn);
    const wav = await readBack(encodeWav(turn.format, turn.audio));
    expect(wav.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    // espeak-ng speaks ~17 words in 4 to 9 s; the audio is speech, not silence.
    const seconds = wav.data.byteLength / 2 / 24000;
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(10);
    expect(rms(wav.data)).toBeGreaterThan(0.02);
  });
});
