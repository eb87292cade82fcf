/**
 * The audio helpers called from untyped code with a wrong argument throw a TypeError naming
 * the function and the argument, at the call, instead of an engine error from inside
 * ("Cannot read properties of null (reading 'Symbol(Symbol.asyncIterator)')").
 */
import { describe, expect, it } from 'vitest';
import { createAudioConverter, readWav } from '../../src/index.js';

const s16 = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;

describe('readWav: its arguments are checked at the call', () => {
  it('a source that is not an async iterable is a TypeError naming it', () => {
    for (const [source, shape] of [
      [null, 'null'],
      [undefined, 'undefined'],
      [new Uint8Array(44), 'an object (Uint8Array)'],
      ['file.wav', 'string'],
    ] as const) {
      expect(() => readWav(source as never)).toThrow(
        new TypeError(
          `readWav(source, options?): source must be an async iterable of Uint8Array (a file read stream, a fetch body), got ${shape}`,
        ),
      );
    }
  });

  it('options that are not an object, or callbacks that are not functions, are a TypeError naming them', () => {
    const source = (async function* () {})();
    expect(() => readWav(source, null as never)).toThrow(
      new TypeError('readWav: options must be an object ({ onDropped?, onTruncated? }), got null'),
    );
    expect(() => readWav(source, { onDropped: 3 } as never)).toThrow(
      new TypeError('readWav: options.onDropped must be a function, got number'),
    );
    expect(() => readWav(source, { onTruncated: 'log' } as never)).toThrow(
      new TypeError('readWav: options.onTruncated must be a function, got string'),
    );
  });
});

describe('createAudioConverter: formats and pushed data are checked', () => {
  it('a from or to that is not an object is a TypeError naming it', async () => {
    // It was "Cannot read properties of null (reading 'encoding')".
    await expect(createAudioConverter(null as never, s16)).rejects.toThrow(
      new TypeError(
        'createAudioConverter(from, to, options?): from must be an AudioFormat ({ encoding, sampleRate }), got null',
      ),
    );
    await expect(createAudioConverter(s16, undefined as never)).rejects.toThrow(
      new TypeError(
        'createAudioConverter(from, to, options?): to must be an AudioFormat ({ encoding, sampleRate }), got undefined',
      ),
    );
  });

  it('push() of something that is not a Uint8Array is a TypeError, whichever converter it is', async () => {
    const converters = [
      await createAudioConverter(s16, s16), // pass-through: returned null as audio
      await createAudioConverter(s16, { encoding: 'mulaw', sampleRate: 16000 }),
      await createAudioConverter(s16, { encoding: 'pcm_s16le', sampleRate: 8000 }),
    ];
    for (const converter of converters) {
      expect(() => converter.push(null as never)).toThrow(
        new TypeError('AudioConverter.push(data): data must be a Uint8Array, got null'),
      );
      expect(() => converter.push([0, 0] as never)).toThrow(
        new TypeError('AudioConverter.push(data): data must be a Uint8Array, got an array'),
      );
      expect(converter.push(Buffer.alloc(4)).byteLength).toBeGreaterThanOrEqual(0);
      converter.close();
    }
  });
});
