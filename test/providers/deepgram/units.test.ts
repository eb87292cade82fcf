import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.js';
import { ConfigError, ProviderError } from '../../../src/errors/index.js';
import { listenResultsSchema } from '../../../src/providers/deepgram/api-types.js';
import { createDeepgramAdapter, deepgramCloseCode } from '../../../src/providers/deepgram/index.js';
import {
  DEEPGRAM_IDLE_WINDOW_MS,
  isInactivityClose,
  listenError,
  NET_0001_MIN_QUIET_MS,
} from '../../../src/providers/deepgram/listen-errors.js';
import { listenQuery } from '../../../src/providers/deepgram/listen-query.js';
import { EndpointTracker, transcriptEventOf } from '../../../src/providers/deepgram/listen-results.js';
import type { ProviderSttRequest } from '../../../src/providers/types.js';

/** The Results example of PROTOCOLS.md 3.2 (Deepgram's documentation). */
const EXAMPLE = {
  type: 'Results',
  channel_index: [0, 1],
  duration: 1.98,
  start: 5.99,
  is_final: true,
  speech_final: true,
  from_finalize: false,
  channel: {
    alternatives: [
      {
        transcript: 'another big',
        confidence: 0.99,
        languages: ['en'],
        words: [
          { word: 'another', start: 6.0, end: 6.3, confidence: 0.99, punctuated_word: 'Another', speaker: 0 },
          { word: 'big', start: 6.3, end: 6.52, confidence: 0.97 },
        ],
      },
    ],
  },
  metadata: { request_id: 'r', model_info: { name: 'n', version: 'v', arch: 'a' }, model_uuid: 'u' },
};

const results = (patch: Record<string, unknown>) => listenResultsSchema().parse({ ...EXAMPLE, ...patch });

describe('EndpointTracker', () => {
  it('gives one end of speech per utterance: a marker only while an utterance is open', () => {
    const endpoints = new EndpointTracker();
    expect(endpoints.endpoint()).toBeUndefined();
    endpoints.seen({ type: 'partial', text: 'hi' });
    expect(endpoints.endpoint()).toBeUndefined();
    endpoints.seen({ type: 'final', text: 'hi there' });
    expect(endpoints.endpoint()).toEqual({ type: 'final', text: '', endOfSpeech: true });
    expect(endpoints.endpoint()).toBeUndefined();
    endpoints.seen({ type: 'final', text: 'bye', endOfSpeech: true });
    expect(endpoints.endpoint()).toBeUndefined();
  });
});

describe('transcriptEventOf', () => {
  it('maps a final Results to a final with ms times (start + duration), punctuated words and confidence', () => {
    expect(transcriptEventOf(results({}), false)).toEqual({
      type: 'final',
      text: 'another big',
      startMs: 5990,
      endMs: 7970,
      confidence: 0.99,
      words: [
        { word: 'Another', startMs: 6000, endMs: 6300, confidence: 0.99 },
        { word: 'big', startMs: 6300, endMs: 6520, confidence: 0.97 },
      ],
      endOfSpeech: true,
    });
  });

  it('sets endOfSpeech only on a final with speech_final: true', () => {
    expect(transcriptEventOf(results({ speech_final: false }), false)).not.toHaveProperty('endOfSpeech');
    expect(transcriptEventOf(results({ speech_final: undefined }), false)).not.toHaveProperty('endOfSpeech');
    const partial = transcriptEventOf(results({ is_final: false, speech_final: true }), true);
    expect(partial?.type).toBe('partial');
    expect(partial).not.toHaveProperty('endOfSpeech');
  });

  it('maps an interim Results to a partial only when interim was asked for', () => {
    expect(transcriptEventOf(results({ is_final: false }), true)).toMatchObject({
      type: 'partial',
      text: 'another big',
    });
    expect(transcriptEventOf(results({ is_final: false }), false)).toBeUndefined();
  });

  it('skips empty or blank transcripts (silence) and results without alternatives', () => {
    const blank = { alternatives: [{ transcript: '  ', confidence: 0, words: [] }] };
    expect(transcriptEventOf(results({ channel: blank }), true)).toBeUndefined();
    expect(transcriptEventOf(results({ channel: { alternatives: [] } }), true)).toBeUndefined();
  });
});

describe('listenQuery', () => {
  const request = (patch: Partial<ProviderSttRequest> = {}): ProviderSttRequest => ({
    audio: (async function* () {})(),
    format: { encoding: 'pcm_s16le', sampleRate: 16000 },
    interim: false,
    ...patch,
  });

  it('puts model, encoding, sample_rate, channels and interim_results first, then the set options', () => {
    expect(
      listenQuery(
        request({ language: 'en-US', format: { encoding: 'alaw', sampleRate: 8000 } }),
        { model: 'nova-3', endpointingMs: false, utteranceEndMs: 1000, smartFormat: true },
        'dg',
      ),
    ).toEqual([
      ['model', 'nova-3'],
      ['encoding', 'alaw'],
      ['sample_rate', '8000'],
      ['channels', '1'],
      ['interim_results', 'true'],
      ['language', 'en-US'],
      ['endpointing', 'false'],
      ['utterance_end_ms', '1000'],
      ['smart_format', 'true'],
    ]);
  });

  it("uses the request's model over the option's, and the option's language when the request has none", () => {
    expect(
      listenQuery(
        request({ model: 'nova-2', interim: true }),
        { model: 'nova-3', language: 'de', endpointingMs: 300 },
        'dg',
      ),
    ).toEqual([
      ['model', 'nova-2'],
      ['encoding', 'linear16'],
      ['sample_rate', '16000'],
      ['channels', '1'],
      ['interim_results', 'true'],
      ['language', 'de'],
      ['endpointing', '300'],
    ]);
  });

  it('refuses float PCM (Deepgram has no raw float encoding)', () => {
    expect(() =>
      listenQuery(
        request({ format: { encoding: 'pcm_f32le', sampleRate: 16000 } }),
        { model: 'nova-3' },
        'dg',
      ),
    ).toThrow('Deepgram /v1/listen cannot take pcm_f32le@16000Hz');
  });
});

describe('close codes', () => {
  it.each([
    ['NET-0001 no audio received', 'NET-0001'],
    [
      'Deepgram did not receive audio data or a text message within the timeout window. See https://dpgr.am/net0001',
      'NET-0001',
    ],
    ['DATA-0000: cannot decode', 'DATA-0000'],
    ['data0000', 'DATA-0000'],
    ['invalid api key', undefined],
  ])('deepgramCloseCode(%j) is %j', (reason, code) => {
    expect(deepgramCloseCode(reason)).toBe(code);
  });

  it('listenError: 1011 with a NET code is retryable, DATA codes and 1008 are not, partialOutput is set', () => {
    const close = (status: number, reason: string) =>
      new ProviderError(`Provider 'dg' closed the WebSocket with code ${status}: ${reason}`, {
        provider: 'dg',
        status,
        retryable: status !== 1008,
      });
    const net = listenError(
      close(1011, 'NET-0001 idle'),
      { code: 1011, reason: 'NET-0001 idle', wasClean: true },
      true,
      10_000,
    );
    const data = listenError(close(1011, 'DATA-0000 bad audio'), undefined, false, 10_000);
    const auth = listenError(close(1008, 'invalid api key'), undefined, false, 10_000);
    expect(
      [net, data, auth].map((e) => {
        const p = e as ProviderError;
        return [p.status, p.providerCode, p.retryable, p.partialOutput];
      }),
    ).toEqual([
      [1011, 'NET-0001', true, true],
      [1011, 'DATA-0000', false, false],
      [1008, undefined, false, false],
    ]);
  });
});

describe('config kind deepgram', () => {
  const config = (provider: Record<string, unknown>) => ({
    providers: { dg: { kind: 'deepgram', apiKey: { env: 'DG_KEY' }, ...provider } },
    routes: { stt: { providers: ['dg'] } },
  });

  it('fills the defaults: public host, nova-3, keep-alive 2000 ms, auth auto', () => {
    const resolved = parseConfig(config({ stt: {} }), { env: { DG_KEY: 'k-123456' } });
    expect(resolved.providers.dg).toEqual({
      kind: 'deepgram',
      baseUrl: 'https://api.deepgram.com',
      apiKey: 'k-123456',
      stt: { model: 'nova-3', keepAliveIntervalMs: 2000, auth: 'auto' },
    });
  });

  it('rejects a keep-alive interval at or above the 10 s server window, and unknown keys', () => {
    let error: unknown;
    try {
      parseConfig(config({ stt: { keepAliveIntervalMs: 10000, interim: true } }), {
        env: { DG_KEY: 'k-123456' },
      });
    } catch (e) {
      error = e;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const paths = (error as ConfigError).issues.map((i) => i.path.join('.'));
    expect(paths).toContain('providers.dg.stt.keepAliveIntervalMs');
    expect(paths).toContain('providers.dg.stt.interim');
  });

  it('the adapter refuses a base URL with credentials and an empty key', () => {
    expect(() =>
      createDeepgramAdapter({ name: 'dg', baseUrl: 'https://u:p@api.deepgram.com', apiKey: 'k' }),
    ).toThrow(ConfigError);
    expect(() =>
      createDeepgramAdapter({ name: 'dg', baseUrl: 'https://api.deepgram.com', apiKey: '' }),
    ).toThrow(ConfigError);
  });
});

describe('NET-0001 while audio flows: an inactivity close only after a quiet spell', () => {
  const net0001 = () =>
    new ProviderError("Provider 'dg' closed the WebSocket with code 1011: NET-0001", {
      provider: 'dg',
      status: 1011,
      retryable: true,
    });
  const closeFrame = { code: 1011, reason: 'NET-0001', wasClean: true };

  it.each([
    [0, false],
    [60, false],
    [NET_0001_MIN_QUIET_MS - 1, false],
    [NET_0001_MIN_QUIET_MS, true],
    [DEEPGRAM_IDLE_WINDOW_MS, true],
  ])('%j ms after the last audio: idleTimeout %j, retryable, never a lost connection', (quietMs, idle) => {
    const e = listenError(net0001(), closeFrame, false, quietMs) as ProviderError;
    expect([e.status, e.providerCode, e.retryable, e.idleTimeout, e.connectionLost]).toEqual([
      1011,
      'NET-0001',
      true,
      idle,
      false,
    ]);
  });

  it('the window is the documented 10 s, the least quiet spell half of it', () => {
    expect([DEEPGRAM_IDLE_WINDOW_MS, NET_0001_MIN_QUIET_MS]).toEqual([10_000, 5_000]);
    expect(isInactivityClose('NET-0002', 60_000)).toBe(false);
    expect(isInactivityClose(undefined, 60_000)).toBe(false);
  });
});
