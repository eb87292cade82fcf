/**
 * The testing kit's helpers called from untyped code with a wrong argument throw a TypeError
 * naming the function and the argument, instead of an engine error from inside them ("Cannot
 * destructure property 'format' of 'options' as it is undefined", "object null is not
 * iterable", "Cannot create proxy with a non-object").
 */
import { describe, expect, it } from 'vitest';
import {
  anthropicHandlers,
  cartesiaHandlers,
  createElevenLabsMock,
  deepgramHandlers,
  deepgramMockWords,
  elevenLabsHandlers,
  elevenLabsWebSocketHandler,
  mockCartesiaAudio,
  mockDeepgramSpeech,
  mockElevenLabsAlignment,
  mockElevenLabsAudio,
  mockElevenLabsDurationMs,
  mockEnv,
  mockSpeechPcm,
  mockWebSocketHandler,
  mockWordTimestamps,
  openAiCompatibleHandlers,
  realDelay,
  sageMakerChatEndpoint,
  sageMakerChatReply,
  sageMakerErrorResponse,
  sageMakerHandlers,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  syntheticAudio,
  syntheticVoice,
  syntheticVoiceBytes,
  syntheticWav,
} from '../../src/testing/index.js';

// biome-ignore lint/suspicious/noExplicitAny: untyped calls are the point of these tests
type Untyped = (...args: any[]) => unknown;
const call =
  (fn: unknown, ...args: unknown[]) =>
  () =>
    (fn as Untyped)(...args);
const ulaw = { encoding: 'mulaw', sampleRate: 8000 } as const;

describe('testing kit: a wrong argument is a TypeError naming it', () => {
  it.each([
    [
      'syntheticAudio()',
      call(syntheticAudio),
      'syntheticAudio(options): options must be an object ({ durationMs, format or sampleRate, seed? }), got undefined',
    ],
    [
      'syntheticWav(null)',
      call(syntheticWav, null),
      'syntheticWav(options): options must be an object ({ durationMs, format or sampleRate, seed? }), got null',
    ],
    [
      'syntheticVoice()',
      call(syntheticVoice),
      'syntheticVoice(options): options must be an object ({ durationMs, sampleRate, seed? }), got undefined',
    ],
    [
      'syntheticVoiceBytes(null)',
      call(syntheticVoiceBytes, null),
      'syntheticVoiceBytes(options): options must be an object ({ durationMs, sampleRate, seed? }), got null',
    ],
    [
      'mockSpeechPcm(null)',
      call(mockSpeechPcm, null),
      'mockSpeechPcm(text, options?): text must be a string, got null',
    ],
    [
      "mockSpeechPcm('Hi', null)",
      call(mockSpeechPcm, 'Hi', null),
      'mockSpeechPcm: options must be an object ({ msPerCharacter?, sampleRate?, seed?, speed? }), got null',
    ],
    [
      "mockDeepgramSpeech('Hi')",
      call(mockDeepgramSpeech, 'Hi'),
      'mockDeepgramSpeech(text, format, options?): format must be an AudioFormat ({ encoding, sampleRate }), got undefined',
    ],
    [
      'mockCartesiaAudio(undefined, format)',
      call(mockCartesiaAudio, undefined, ulaw),
      'mockCartesiaAudio(text, format, speech?): text must be a string, got undefined',
    ],
    [
      "mockWordTimestamps(['Hi'], 0, 2)",
      call(mockWordTimestamps, ['Hi'], 0, 2),
      'mockWordTimestamps(text, from, until, speech?): text must be a string, got an array',
    ],
    [
      'deepgramMockWords(null, 300)',
      call(deepgramMockWords, null, 300),
      'deepgramMockWords(transcript, wordMs): transcript must be a string, got null',
    ],
    [
      "mockElevenLabsAudio('Hi', null)",
      call(mockElevenLabsAudio, 'Hi', null),
      'mockElevenLabsAudio(text, format, speech?, speed?): format must be an AudioFormat ({ encoding, sampleRate }), got null',
    ],
    [
      'mockElevenLabsDurationMs(3)',
      call(mockElevenLabsDurationMs, 3),
      'mockElevenLabsDurationMs(text, speech?, speed?): text must be a string, got number',
    ],
    [
      'mockElevenLabsAlignment(null, 100)',
      call(mockElevenLabsAlignment, null, 100),
      'mockElevenLabsAlignment(text, durationMs, durationsKey?): text must be a string, got null',
    ],
    [
      "sageMakerChatReply('tgi')",
      call(sageMakerChatReply, 'tgi'),
      'sageMakerChatReply(payload, text): text must be a string, got undefined',
    ],
    [
      'sageMakerChatEndpoint(null)',
      call(sageMakerChatEndpoint, null),
      'sageMakerChatEndpoint(options?): options must be an object ({ payload?, reply?, script? }), got null',
    ],
    [
      'sageMakerTtsEndpoint()',
      call(sageMakerTtsEndpoint),
      'sageMakerTtsEndpoint(options): options must be an object ({ payload, speech?, script? }), got undefined',
    ],
    [
      "sageMakerSttEndpoint('x')",
      call(sageMakerSttEndpoint, 'x'),
      'sageMakerSttEndpoint(options?): options must be an object ({ transcript?, partials?, script? }), got string',
    ],
    [
      "sageMakerErrorResponse(500, 'InternalFailure', 'boom')",
      call(sageMakerErrorResponse, 500, 'InternalFailure', 'boom'),
      'sageMakerErrorResponse(status, type, message, options): options must be an object ({ requestId, body?, retryAfter? }), got undefined',
    ],
    [
      'mockEnv(null)',
      call(mockEnv, null),
      'mockEnv(env?): env must be an object of environment variables (default process.env), got null',
    ],
    [
      'openAiCompatibleHandlers()',
      call(openAiCompatibleHandlers),
      'openAiCompatibleHandlers(options): options must be an object ({ provider } or mock options, baseUrl), got undefined',
    ],
    [
      'openAiCompatibleHandlers({})',
      call(openAiCompatibleHandlers, {}),
      "openAiCompatibleHandlers: options.baseUrl must be a URL string (e.g. 'https://api.openai.com/v1'), got undefined",
    ],
    [
      'anthropicHandlers(null)',
      call(anthropicHandlers, null),
      'anthropicHandlers(options): options must be an object ({ provider } or mock options, baseUrl), got null',
    ],
    [
      "cartesiaHandlers({ provider: 'mock' })",
      call(cartesiaHandlers, { provider: 'mock' }),
      'cartesiaHandlers: options.provider must be a mock (e.g. from a create...Mock() factory), got string',
    ],
    [
      'deepgramHandlers(null)',
      call(deepgramHandlers, null),
      'deepgramHandlers(options): options must be an object ({ provider } or mock options, baseUrl), got null',
    ],
    [
      'elevenLabsHandlers({ baseUrl: 3 })',
      call(elevenLabsHandlers, { baseUrl: 3 }),
      "elevenLabsHandlers: options.baseUrl must be a URL string (e.g. 'https://api.openai.com/v1'), got number",
    ],
    [
      'elevenLabsWebSocketHandler(null)',
      call(elevenLabsWebSocketHandler, null),
      'elevenLabsWebSocketHandler(provider, baseUrl?): provider must be an ElevenLabs mock (createElevenLabsMock()), got null',
    ],
    [
      'sageMakerHandlers({})',
      call(sageMakerHandlers, {}),
      "sageMakerHandlers: options.endpointUrl must be a URL string (e.g. 'https://api.openai.com/v1'), got undefined",
    ],
    [
      'mockWebSocketHandler(null, mock)',
      call(mockWebSocketHandler, null, createElevenLabsMock()),
      "mockWebSocketHandler(url, provider): url must be a WebSocket URL string (e.g. 'wss://api.deepgram.com/v1/listen'), got null",
    ],
  ] as const)('%s', (_, fn, message) => {
    expect(fn).toThrow(TypeError);
    expect(fn).toThrow(message);
  });

  it('realDelay without a signal, or with an ms that is not a number, rejects naming the argument', async () => {
    await expect(call(realDelay, 5)() as Promise<void>).rejects.toThrow(
      new TypeError('realDelay(ms, signal): signal must be an AbortSignal, got undefined'),
    );
    await expect(realDelay(Number.NaN, new AbortController().signal)).rejects.toThrow(
      new RangeError('realDelay(ms, signal): ms must be a number of ms, got NaN'),
    );
    await expect(call(realDelay, '5', new AbortController().signal)() as Promise<void>).rejects.toThrow(
      new TypeError('realDelay(ms, signal): ms must be a number of ms, got string'),
    );
    await expect(realDelay(0, new AbortController().signal)).resolves.toBeUndefined();
  });

  it('mockElevenLabsAlignment with a duration that is not a number of ms >= 0 is a RangeError', () => {
    expect(() => mockElevenLabsAlignment('Hi', -5)).toThrow(
      new RangeError('mockElevenLabsAlignment: durationMs must be a number of ms >= 0, got -5'),
    );
  });

  it('the right calls still work', () => {
    expect(syntheticAudio({ durationMs: 10, format: ulaw }).byteLength).toBe(80);
    expect(mockCartesiaAudio('Hi', ulaw).byteLength).toBe(960);
    expect(deepgramMockWords('Hi there', 100).map((w) => w.word)).toEqual(['hi', 'there']);
    expect(mockEnv({ A: 'x' }).A).toBe('x');
  });
});
