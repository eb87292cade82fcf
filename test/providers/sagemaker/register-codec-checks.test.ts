/**
 * registerSageMakerCodec refuses, at registration, a codec that would crash at its first call:
 * a TypeError naming the missing member, and nothing registered.
 */
import { describe, expect, it } from 'vitest';
import { registerSageMakerCodec, sageMakerCodecNames } from '../../../src/providers/sagemaker/registry.js';

const fn = () => {
  throw new Error('not called');
};

describe('registerSageMakerCodec: the codec is checked when it is registered', () => {
  it.each([
    [
      'chat',
      { capability: 'chat', decode: fn },
      "SageMaker chat codec 'bad' must have a function encode(), got undefined",
    ],
    [
      'chat',
      { capability: 'chat', encode: fn },
      "SageMaker chat codec 'bad' must have a function decode(), got undefined",
    ],
    [
      'chat',
      { capability: 'chat', encode: fn, decode: 'x' },
      "SageMaker chat codec 'bad' must have a function decode(), got string",
    ],
    [
      'tts',
      { capability: 'tts', encode: fn, decode: fn },
      "SageMaker tts codec 'bad' must have a function outputFormats(), got undefined",
    ],
    [
      'stt',
      { capability: 'stt', encode: fn, decode: fn },
      "SageMaker stt codec 'bad' must have a function inputFormats(), got undefined",
    ],
    [
      'stt',
      { capability: 'stt', encode: fn, decode: fn, inputFormats: fn, input: {} },
      "SageMaker stt codec 'bad' has input, which must be a function when given, got an object (Object)",
    ],
  ] as const)(
    'a %s codec without a member: TypeError naming it, nothing registered',
    (capability, codec, message) => {
      expect(() => registerSageMakerCodec('bad', codec as never)).toThrow(TypeError);
      expect(() => registerSageMakerCodec('bad', codec as never)).toThrow(message);
      expect(sageMakerCodecNames(capability)).not.toContain('bad');
    },
  );

  it('a codec that is not an object, a name that is not a string: TypeError naming the argument', () => {
    expect(() => registerSageMakerCodec('bad', null as never)).toThrow(
      "registerSageMakerCodec: SageMaker codec 'bad' must be an object ({ capability, encode, decode, ... }), got null",
    );
    expect(() =>
      registerSageMakerCodec(undefined as never, { capability: 'chat', encode: fn, decode: fn }),
    ).toThrow('registerSageMakerCodec(name, codec): name must be a non-empty string, got undefined');
    expect(() => registerSageMakerCodec('', { capability: 'chat', encode: fn, decode: fn })).toThrow(
      'registerSageMakerCodec(name, codec): name must be a non-empty string, got an empty string',
    );
    expect(() => registerSageMakerCodec('bad', { capability: 7 } as never)).toThrow(
      "SageMaker codec 'bad' must have capability 'chat', 'tts' or 'stt', got number",
    );
  });

  it('a complete codec is registered (input may be omitted)', () => {
    registerSageMakerCodec('complete-stt', {
      capability: 'stt',
      encode: fn,
      decode: fn,
      inputFormats: fn,
    } as never);
    expect(sageMakerCodecNames('stt')).toContain('complete-stt');
  });
});
