import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors/index.js';
import { ttsUrl, wireVoiceSettings } from '../../../src/providers/elevenlabs/endpoint.js';
import { isRetryableStreamInput } from '../../../src/providers/elevenlabs/errors.js';
import {
  createElevenLabsAdapter,
  formatOfOutputName,
  outputFormatName,
  TextChunker,
  wordsFromAlignment,
} from '../../../src/providers/elevenlabs/index.js';

describe('output formats', () => {
  it('maps AudioFormats to output_format names and back', () => {
    expect(outputFormatName({ encoding: 'pcm_s16le', sampleRate: 22050 })).toBe('pcm_22050');
    expect(outputFormatName({ encoding: 'mulaw', sampleRate: 8000 })).toBe('ulaw_8000');
    expect(outputFormatName({ encoding: 'alaw', sampleRate: 8000 })).toBe('alaw_8000');
    expect(outputFormatName({ encoding: 'mulaw', sampleRate: 16000 })).toBeUndefined();
    expect(outputFormatName({ encoding: 'pcm_s16le', sampleRate: 11025 })).toBeUndefined();
    expect(outputFormatName({ encoding: 'pcm_f32le', sampleRate: 24000 })).toBeUndefined();
    expect(formatOfOutputName('pcm_44100')).toEqual({ encoding: 'pcm_s16le', sampleRate: 44100 });
    expect(formatOfOutputName('ulaw_8000')).toEqual({ encoding: 'mulaw', sampleRate: 8000 });
    expect(formatOfOutputName('mp3_44100_128')).toBeUndefined();
    expect(formatOfOutputName('pcm_12345')).toBeUndefined();
  });
});

describe('TextChunker', () => {
  it('never cuts a word: holds pieces until whitespace, each message ends with a space', () => {
    const chunker = new TextChunker();
    expect(chunker.push('Hel')).toEqual([]);
    expect(chunker.push('lo wor')).toEqual([{ text: 'Hello ' }]);
    expect(chunker.push('ld')).toEqual([]);
    expect(chunker.end()).toEqual([{ text: 'world ' }]);
    expect(chunker.end()).toEqual([]);
  });

  it('flushes at sentence ends, one message per sentence', () => {
    const chunker = new TextChunker();
    expect(chunker.push('Sure! Your table')).toEqual([{ text: 'Sure! ', flush: true }, { text: 'Your ' }]);
    expect(chunker.push(' is booked. See you "soon." Bye')).toEqual([
      { text: 'table is booked. ', flush: true },
      { text: 'See you "soon." ', flush: true },
    ]);
    expect(chunker.end()).toEqual([{ text: 'Bye ' }]);
  });

  it('adds a space after a newline and never sends whitespace alone', () => {
    const chunker = new TextChunker();
    expect(chunker.push('   ')).toEqual([]);
    expect(chunker.push('Line one\n')).toEqual([{ text: 'Line one\n ' }]);
    expect(chunker.push('\n\n')).toEqual([]);
    expect(chunker.end()).toEqual([]);
  });
});

describe('wordsFromAlignment', () => {
  const alignment = {
    chars: ['H', 'i', ' ', 'y', 'o', 'u', '.', ' '],
    charStartTimesMs: [0, 40, 90, 120, 150, 190, 230, 260],
    charDurationsMs: [40, 50, 30, 30, 40, 40, 30, 20],
  };

  it('makes words from runs of non-space characters, shifted by the audio before the message', () => {
    expect(wordsFromAlignment(alignment, 1000)).toEqual([
      { word: 'Hi', startMs: 1000, endMs: 1090 },
      { word: 'you.', startMs: 1120, endMs: 1260 },
    ]);
  });

  it('reads the asyncapi spelling charsDurationsMs too', () => {
    const { charDurationsMs, ...rest } = alignment;
    expect(wordsFromAlignment({ ...rest, charsDurationsMs: charDurationsMs }, 0)).toEqual([
      { word: 'Hi', startMs: 0, endMs: 90 },
      { word: 'you.', startMs: 120, endMs: 260 },
    ]);
  });

  it('ignores missing or inconsistent alignment', () => {
    expect(wordsFromAlignment(null, 0)).toEqual([]);
    expect(wordsFromAlignment({ chars: ['a'], charStartTimesMs: [0] }, 0)).toEqual([]);
    expect(
      wordsFromAlignment({ chars: ['a', 'b'], charStartTimesMs: [0], charDurationsMs: [1, 2] }, 0),
    ).toEqual([]);
  });
});

describe('endpoint', () => {
  it('derives the stream-input URL: wss for https, ws for http, voice encoded, path prefix kept', () => {
    const adapter = createElevenLabsAdapter({
      name: 'e',
      baseUrl: 'https://api.elevenlabs.io',
      apiKey: 'k',
      tts: {},
    });
    expect(adapter.name).toBe('e');
    const endpoint = { provider: 'e', base: new URL('https://eu.example/proxy/'), apiKey: 'k' };
    expect(ttsUrl(endpoint, 'a b', 'stream-input', { model_id: 'm', language_code: undefined }, true)).toBe(
      'wss://eu.example/proxy/v1/text-to-speech/a%20b/stream-input?model_id=m',
    );
    const local = { provider: 'e', base: new URL('http://127.0.0.1:9000'), apiKey: 'k' };
    expect(ttsUrl(local, 'v', 'stream-input', { output_format: 'pcm_16000' }, true)).toBe(
      'ws://127.0.0.1:9000/v1/text-to-speech/v/stream-input?output_format=pcm_16000',
    );
  });

  it('rejects a base URL with credentials or another scheme, and an empty key', () => {
    const make =
      (baseUrl: string, apiKey = 'k') =>
      () =>
        createElevenLabsAdapter({ name: 'e', baseUrl, apiKey });
    expect(make('https://u:p@api.elevenlabs.io')).toThrow(ConfigError);
    expect(make('ftp://api.elevenlabs.io')).toThrow(ConfigError);
    expect(make('https://api.elevenlabs.io', '')).toThrow(ConfigError);
  });

  it('voice settings: snake_case, request speed replaces the configured one, clamped', () => {
    expect(wireVoiceSettings(undefined, undefined)).toBeUndefined();
    expect(wireVoiceSettings({ similarityBoost: 0.7, speed: 0.9 }, undefined)).toEqual({
      similarity_boost: 0.7,
      speed: 0.9,
    });
    expect(wireVoiceSettings({ speed: 0.9 }, 0.5)).toEqual({ speed: 0.7 });
  });
});

describe('stream-input error classification', () => {
  it('C18: 1008 is not retryable, except the inactivity close; other kinds follow the transport rules', () => {
    expect(isRetryableStreamInput(undefined, 1008, false)).toBe(false);
    expect(isRetryableStreamInput('invalid_api_key', 1008, true)).toBe(false);
    expect(isRetryableStreamInput('input_timeout_exceeded', 1008, false)).toBe(true);
    // A used-up quota passes, whatever the close code it comes with.
    expect(isRetryableStreamInput('quota_exceeded', 1011, true)).toBe(true);
    expect(isRetryableStreamInput('invalid_request', 1011, true)).toBe(false);
    expect(isRetryableStreamInput('system_busy', 1011, true)).toBe(true);
    expect(isRetryableStreamInput(undefined, 1011, true)).toBe(true);
  });
});
