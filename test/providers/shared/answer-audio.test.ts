import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/index.js';
import { declaredAudio, mp3Verdict, rawAnswerFormat } from '../../../src/providers/shared/answer-audio.js';
import type { AudioFormat } from '../../../src/types/audio.js';

const MULAW: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
const PCM24: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000 };

describe('declaredAudio', () => {
  it('reads each kind of Content-Type, with rate and channels of raw types', () => {
    expect(
      [
        '',
        'application/octet-stream',
        'audio/wav',
        'audio/mpeg',
        'application/json; charset=utf-8',
        'text/html',
        'audio/ogg',
        'audio/L16; rate=24000; channels=1',
        'audio/basic',
        'audio/x-alaw',
        'audio/pcm;rate="16000"',
      ].map(declaredAudio),
    ).toEqual([
      { kind: 'unlabelled' },
      { kind: 'unlabelled' },
      { kind: 'wav' },
      { kind: 'mpeg' },
      { kind: 'not-audio' },
      { kind: 'not-audio' },
      { kind: 'other' },
      { kind: 'raw', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 },
      { kind: 'raw', encoding: 'mulaw', sampleRate: 8000, channels: 1 },
      { kind: 'raw', encoding: 'alaw' },
      { kind: 'raw', sampleRate: 16_000 },
    ]);
  });
});

describe('rawAnswerFormat', () => {
  const format = (type: string) => rawAnswerFormat('p', 'Answer', type, declaredAudio(type), MULAW);

  it('labels with what the type names, the request for the rest', () => {
    expect(format('audio/L16; rate=24000')).toEqual({ encoding: 'pcm_s16le', sampleRate: 24_000 });
    expect(format('audio/pcmu')).toEqual(MULAW);
    expect(format('audio/pcm; rate=8000')).toEqual(MULAW);
    expect(
      rawAnswerFormat('p', 'Answer', 'audio/pcm; rate=16000', declaredAudio('audio/pcm; rate=16000'), PCM24),
    ).toEqual({
      encoding: 'pcm_s16le',
      sampleRate: 16_000,
    });
    expect(format('application/octet-stream')).toEqual(MULAW);
  });

  it('another encoding without a rate, two channels, or a compressed type is a ProtocolError naming both', () => {
    for (const type of [
      'audio/x-alaw',
      'audio/L16; rate=24000; channels=2',
      'audio/mpeg',
      'audio/pcm; rate=16000',
    ]) {
      let caught: unknown;
      try {
        format(type);
      } catch (error) {
        caught = error;
      }
      expect(ProtocolError.isInstance(caught)).toBe(true);
      expect((caught as ProtocolError).message).toBe(`Answer has Content-Type '${type}', not mulaw@8000Hz`);
    }
  });
});

describe('mp3Verdict', () => {
  /** An MPEG-1 Layer III header (128 kbps, 44.1 kHz: frames of 417 bytes) and an MPEG-2 one (32 kbps, 16 kHz: 144 bytes). */
  const V1 = [0xff, 0xfb, 0x90, 0x64];
  const V2 = [0xff, 0xf3, 0x48, 0xc4];
  const frame = (header: number[], bytes: number) => [...header, ...new Array<number>(bytes - 4).fill(0x55)];

  it('MP3 is an ID3 tag or two Layer III frame headers one frame apart; one header alone waits for the frame', () => {
    const heads: number[][] = [
      [0x49, 0x44, 0x33, 0x04],
      [...frame(V1, 417), ...V1],
      [...frame(V2, 144), ...V2],
      V1,
      frame(V1, 417),
      [0xff, 0xfb],
    ];
    expect(heads.map((h) => mp3Verdict(new Uint8Array(h)))).toEqual([
      'mp3',
      'mp3',
      'mp3',
      'more',
      'more',
      'more',
    ]);
  });

  it('raw audio that starts like a frame header is not MP3: PCM and mu-law silence, samples -1 then 20, a header not followed by another one frame later', () => {
    const heads: number[][] = [
      [0xff, 0xff, 0xff, 0xff],
      [0x00, 0x00, 0x00, 0x00],
      [0xff, 0xfe, 0xff, 0xfe],
      [0xff, 0xff, 0x14, 0x00],
      [0xff, 0xff, 0x7b, 0xff],
      [...frame(V1, 417), 0x00, 0x00, 0x00, 0x00],
      [...frame(V1, 417), ...V2],
    ];
    expect(heads.map((h) => mp3Verdict(new Uint8Array(h)))).toEqual([
      'not',
      'not',
      'not',
      'not',
      'not',
      'not',
      'not',
    ]);
  });
});
