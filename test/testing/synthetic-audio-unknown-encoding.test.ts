/**
 * The testing kit's audio helpers called from untyped code with a format whose encoding is not
 * one voxroute makes (`'mp3'`, `'pcm'`, or none) throw a RangeError naming the function and
 * `format.encoding`. They returned `undefined` where a Uint8Array was promised (the encoder has no
 * case for it), so `expect(bytes).toEqual(mockCartesiaAudio(text, format))` compared against
 * nothing, and `syntheticWav` failed naming `encodeWav`, a function the caller never called.
 */
import { describe, expect, it } from 'vitest';
import {
  mockCartesiaAudio,
  mockDeepgramSpeech,
  mockElevenLabsAudio,
  syntheticAudio,
  syntheticWav,
} from '../../src/testing/index.js';
import type { AudioFormat } from '../../src/types/audio.js';

const mp3 = { encoding: 'mp3', sampleRate: 16000 } as unknown as AudioFormat;
const none = { sampleRate: 16000 } as unknown as AudioFormat;
const encodings = 'pcm_s16le, pcm_f32le, mulaw, alaw';

describe('testing kit: an unknown audio encoding is a RangeError naming the helper', () => {
  it.each([
    ['syntheticAudio', () => syntheticAudio({ durationMs: 100, format: mp3 }), "got 'mp3'"],
    ['syntheticAudio', () => syntheticAudio({ durationMs: 100, format: none }), 'got undefined'],
    ['syntheticWav', () => syntheticWav({ durationMs: 100, format: mp3 }), "got 'mp3'"],
    ['mockCartesiaAudio', () => mockCartesiaAudio('Hi there.', mp3), "got 'mp3'"],
    ['mockElevenLabsAudio', () => mockElevenLabsAudio('Hi there.', none), 'got undefined'],
    ['mockDeepgramSpeech', () => mockDeepgramSpeech('Hello', mp3), "got 'mp3'"],
  ])('%s', (name, call, got) => {
    expect(call).toThrow(RangeError);
    expect(call).toThrow(`${name}: format.encoding must be one of ${encodings}, ${got}`);
  });

  it('a known encoding still gives the same bytes', () => {
    const ulaw = { encoding: 'mulaw', sampleRate: 8000 } as const;
    expect(syntheticAudio({ durationMs: 200, format: ulaw }).byteLength).toBe(1600);
    expect(mockCartesiaAudio('Hi there.', ulaw)).toEqual(syntheticAudio({ durationMs: 540, format: ulaw }));
    expect(mockDeepgramSpeech('Hello', ulaw).byteLength).toBe(2400);
  });
});
