import { describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from '../../../src/errors/index.js';
import { cartesiaSocketTarget, createCartesiaEndpoint } from '../../../src/providers/cartesia/endpoint.js';
import {
  CARTESIA_STT_FORMATS,
  CARTESIA_TTS_FORMATS,
  wireOutputFormat,
} from '../../../src/providers/cartesia/formats.js';
import { createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import { transcriptEvent } from '../../../src/providers/cartesia/stt-transcript.js';
import { pickTtsTransport } from '../../../src/providers/cartesia/tts.js';
import { TtsEventReader } from '../../../src/providers/cartesia/tts-events.js';
import { contextRequest, ttsBody } from '../../../src/providers/cartesia/tts-request.js';
import { textPieces } from './helpers.js';

const key = 'sk_car_wire_0123456789';

describe('Cartesia endpoint (PROTOCOLS.md 1.1)', () => {
  it('sends the key as Bearer and X-API-Key with Cartesia-Version; extra headers never replace them', () => {
    const endpoint = createCartesiaEndpoint({
      name: 'c',
      apiKey: key,
      headers: {
        'X-Proxy': 'p',
        'x-api-key': 'other',
        'Cartesia-Version': '1999-01-01',
        Authorization: 'Basic x',
      },
    });
    expect(endpoint.http.headers).toEqual({
      'X-Proxy': 'p',
      'cartesia-version': '2025-11-04',
      'x-api-key': key,
      authorization: `Bearer ${key}`,
    });
    expect(endpoint.http.base.href).toBe('https://api.cartesia.ai/');
  });

  it('derives WebSocket URLs: https -> wss, http -> ws, query kept in order, headers by default', () => {
    const secure = createCartesiaEndpoint({ name: 'c', apiKey: key, version: '2026-03-01' });
    expect(
      cartesiaSocketTarget(secure, '/stt/websocket', {
        model: 'ink-2',
        encoding: 'pcm_s16le',
        sample_rate: 16000,
        language: undefined,
      }),
    ).toEqual({
      url: 'wss://api.cartesia.ai/stt/websocket?model=ink-2&encoding=pcm_s16le&sample_rate=16000',
      headers: { 'cartesia-version': '2026-03-01', 'x-api-key': key, authorization: `Bearer ${key}` },
    });
    const local = createCartesiaEndpoint({ name: 'c', baseUrl: 'http://127.0.0.1:8080/', apiKey: key });
    expect(cartesiaSocketTarget(local, '/tts/websocket').url).toBe('ws://127.0.0.1:8080/tts/websocket');
  });

  it('puts api_key and cartesia_version in the query, and no header, when asked to (browsers, msw)', () => {
    const endpoint = createCartesiaEndpoint({ name: 'c', apiKey: key, authInQuery: true });
    expect(cartesiaSocketTarget(endpoint, '/tts/websocket')).toEqual({
      url: `wss://api.cartesia.ai/tts/websocket?cartesia_version=2025-11-04&api_key=${key}`,
      headers: {},
    });
  });

  it('refuses a base URL that is not http(s) or that holds credentials (ConfigError with the path)', () => {
    for (const baseUrl of ['ftp://api.cartesia.ai', 'https://user:pw@api.cartesia.ai']) {
      let caught: unknown;
      try {
        createCartesiaAdapter({ name: 'c', baseUrl, apiKey: key });
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught)).toBe(true);
      expect((caught as ConfigError).issues[0]!.path).toEqual(['providers', 'c', 'baseUrl']);
    }
  });
});

describe('Cartesia formats (PROTOCOLS.md 1.2)', () => {
  it('offers 4 encodings x 6 rates for TTS, PCM s16le 24 kHz first and mu-law 8 kHz first among mu-law', () => {
    expect(CARTESIA_TTS_FORMATS).toHaveLength(24);
    expect(CARTESIA_TTS_FORMATS[0]).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000 });
    expect(CARTESIA_TTS_FORMATS.find((f) => f.encoding === 'mulaw')).toEqual({
      encoding: 'mulaw',
      sampleRate: 8000,
    });
    const keys = new Set(CARTESIA_TTS_FORMATS.map((f) => `${f.encoding}@${f.sampleRate}`));
    expect(keys.size).toBe(24);
    expect(CARTESIA_STT_FORMATS[0]).toEqual({ encoding: 'pcm_s16le', sampleRate: 16000 });
  });

  it('maps each voxroute encoding to its raw output_format, and refuses a rate Cartesia lacks', () => {
    expect(wireOutputFormat('c', { encoding: 'mulaw', sampleRate: 8000 })).toEqual({
      container: 'raw',
      encoding: 'pcm_mulaw',
      sample_rate: 8000,
    });
    expect(wireOutputFormat('c', { encoding: 'alaw', sampleRate: 48000 }).encoding).toBe('pcm_alaw');
    expect(wireOutputFormat('c', { encoding: 'pcm_f32le', sampleRate: 22050 }).encoding).toBe('pcm_f32le');
    let caught: unknown;
    try {
      wireOutputFormat('c', { encoding: 'pcm_s16le', sampleRate: 32000 });
    } catch (error) {
      caught = error;
    }
    expect(ProviderError.isInstance(caught)).toBe(true);
    expect((caught as ProviderError).retryable).toBe(true);
    expect((caught as ProviderError).message).toBe(
      "Provider 'c' (Cartesia) cannot produce pcm_s16le@32000Hz",
    );
  });
});

describe('Cartesia TTS request bodies (PROTOCOLS.md 1.3-1.5)', () => {
  const request = {
    voice: 'voice-1',
    format: { encoding: 'pcm_s16le', sampleRate: 16000 } as const,
    language: 'en-US',
    speed: 3,
  };

  it('builds model_id, voice, raw output_format, language subtag, clamped speed and add_timestamps', () => {
    expect(ttsBody('c', request, { model: 'sonic-3' }, 'Hello.', true)).toEqual({
      model_id: 'sonic-3',
      transcript: 'Hello.',
      voice: { mode: 'id', id: 'voice-1' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      language: 'en',
      generation_config: { speed: 1.5 },
      add_timestamps: true,
    });
    const plain = ttsBody(
      'c',
      { voice: 'v', format: request.format, model: 'sonic-2', speed: 0.1 },
      { model: 'sonic-3', language: 'de' },
      'x',
      false,
    );
    expect(plain).toEqual({
      model_id: 'sonic-2',
      transcript: 'x',
      voice: { mode: 'id', id: 'v' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      language: 'de',
      generation_config: { speed: 0.6 },
    });
  });

  it('a context request repeats the body with context_id, continue and max_buffer_delay_ms', () => {
    const base = ttsBody('c', { voice: 'v', format: request.format }, { model: 'sonic-3' }, '', false);
    expect(contextRequest(base, 'ctx-1', 'Hi ', true, 250)).toEqual({
      ...base,
      transcript: 'Hi ',
      context_id: 'ctx-1',
      continue: true,
      max_buffer_delay_ms: 250,
    });
    expect(contextRequest(base, 'ctx-1', '', false, undefined)).toEqual({
      ...base,
      transcript: '',
      context_id: 'ctx-1',
      continue: false,
    });
  });

  it("'auto' uses bytes for a string and the websocket for streamed text", () => {
    expect(pickTtsTransport('auto', 'Hello.')).toBe('bytes');
    expect(pickTtsTransport('auto', textPieces(['a']))).toBe('websocket');
    expect(pickTtsTransport('sse', textPieces(['a']))).toBe('sse');
  });
});

describe('Cartesia TTS events', () => {
  const format = { encoding: 'mulaw', sampleRate: 8000 } as const;

  it('decodes chunks, attaches the word timings that came before to the next chunk, in ms', () => {
    const reader = new TtsEventReader('c', format);
    expect(reader.push({ type: 'chunk', data: 'AAEC' })).toEqual({
      audio: { data: new Uint8Array([0, 1, 2]), format },
      done: false,
    });
    expect(
      reader.push({
        type: 'timestamps',
        word_timestamps: { words: ['Hi', 'there.'], start: [0, 0.1805], end: [0.12, 0.54] },
      }),
    ).toEqual({ done: false });
    expect(reader.push({ type: 'chunk', data: '/w==' })).toEqual({
      audio: {
        data: new Uint8Array([255]),
        format,
        words: [
          { word: 'Hi', startMs: 0, endMs: 120 },
          { word: 'there.', startMs: 181, endMs: 540 },
        ],
      },
      done: false,
    });
    expect(reader.push({ type: 'flush_done' })).toEqual({ done: false });
    expect(reader.push({ type: 'done' })).toEqual({ done: true });
    expect(reader.hadOutput).toBe(true);
  });

  it('throws the ProviderError of an error event, retryable by its status_code, partialOutput after audio', () => {
    const reader = new TtsEventReader('c', format);
    reader.push({ type: 'chunk', data: 'AAEC' });
    let caught: unknown;
    try {
      reader.push({
        type: 'error',
        status_code: 429,
        error_code: 'concurrency_limited',
        title: 'Too Many Requests',
        message: 'Concurrency limit reached',
      } as never);
    } catch (error) {
      caught = error;
    }
    expect(ProviderError.isInstance(caught)).toBe(true);
    const e = caught as ProviderError;
    expect({
      retryable: e.retryable,
      partialOutput: e.partialOutput,
      code: e.providerCode,
      status: e.status,
    }).toEqual({
      retryable: true,
      partialOutput: true,
      code: 'concurrency_limited',
      status: undefined,
    });
    expect(e.message).toBe(
      "Provider 'c' sent an error mid-stream (concurrency_limited): Concurrency limit reached",
    );
  });
});

describe('Cartesia STT transcripts (PROTOCOLS.md 1.6)', () => {
  it('a final with per-word objects gives text, words and times in ms', () => {
    expect(
      transcriptEvent(
        {
          type: 'transcript',
          text: ' How are you',
          is_final: true,
          words: [
            { word: 'How', start: 0, end: 0.12 },
            { word: 'are', start: 0.2, end: 0.3 },
            { word: 'you', start: 0.35, end: 0.5 },
          ],
        },
        false,
      ),
    ).toEqual({
      type: 'final',
      text: ' How are you',
      startMs: 0,
      endMs: 500,
      words: [
        { word: 'How', startMs: 0, endMs: 120 },
        { word: 'are', startMs: 200, endMs: 300 },
        { word: 'you', startMs: 350, endMs: 500 },
      ],
    });
  });

  it('reads the parallel-arrays words of the TS type too; drops partials without interim and empty text', () => {
    expect(
      transcriptEvent(
        {
          type: 'transcript',
          text: 'Hi',
          is_final: false,
          words: { words: ['Hi'], start: [1], end: [1.25] },
        },
        true,
      ),
    ).toEqual({
      type: 'partial',
      text: 'Hi',
      startMs: 1000,
      endMs: 1250,
      words: [{ word: 'Hi', startMs: 1000, endMs: 1250 }],
    });
    expect(transcriptEvent({ type: 'transcript', text: 'Hi', is_final: false }, false)).toBeUndefined();
    expect(transcriptEvent({ type: 'transcript', text: '  ', is_final: true }, true)).toBeUndefined();
    expect(transcriptEvent({ type: 'transcript', text: 'Ok', is_final: true }, false)).toEqual({
      type: 'final',
      text: 'Ok',
    });
  });
});
