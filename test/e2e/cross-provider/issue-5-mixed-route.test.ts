import { describe, expect, it } from 'vitest';
import { type ChatEvent, ProviderError, type RouterConfig } from '../../../src/index.js';
import {
  createAnthropicMock,
  createCartesiaMock,
  createDeepgramMock,
  createOpenAiCompatibleMock,
  mockCartesiaAudio,
  mockSpeechPcm,
  sageMakerChatEndpoint,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import {
  AWS,
  concat,
  drain,
  emulate,
  outcomes,
  PCM16K,
  PCM24K,
  pieces,
  router,
  SAME,
  sameBytes,
  serve,
} from './helpers.js';

const KEY = 'third-party-key-0987';
const FAIL = { failTimes: 99, failStatus: 503 } as const;

/**
 * The three providers of issue 5 for every capability: a SageMaker endpoint (the emulator), a
 * self-hosted OpenAI-compatible server and a third-party API (Anthropic for chat, Cartesia for
 * tts, Deepgram for stt). `sagemakerFails` decides who serves: SageMaker and EC2 fail (the
 * third party serves), or the third party and EC2 fail (SageMaker serves).
 */
async function mixed(sagemakerFails: boolean) {
  const thirdFails = !sagemakerFails;
  const emulator = await emulate({
    llm: sageMakerChatEndpoint({ reply: 'From SageMaker.', ...(sagemakerFails ? { script: FAIL } : {}) }),
    sonic: sageMakerTtsEndpoint({ payload: 'raw-pcm', ...(sagemakerFails ? { script: FAIL } : {}) }),
    whisper: sageMakerSttEndpoint({
      transcript: 'from sagemaker',
      ...(sagemakerFails ? { script: FAIL } : {}),
    }),
  });
  const ec2 = createOpenAiCompatibleMock({ dialect: 'vllm', script: FAIL });
  const claude = createAnthropicMock({
    apiKey: KEY,
    reply: 'From Claude.',
    ...(thirdFails ? { script: { failTimes: 99, failStatus: 529 } } : {}),
  });
  const cartesia = createCartesiaMock({
    apiKey: KEY,
    ...(thirdFails ? { script: { bytes: { failTimes: 99, failStatus: 429 } } } : {}),
  });
  const deepgram = createDeepgramMock({
    apiKey: KEY,
    inactivityTimeoutMs: 0,
    transcript: 'Table for two.',
    ...(thirdFails ? { script: { listen: { closeAfterChunks: 0, closeCode: 1011 } } } : {}),
  });
  const [ec2Url, claudeUrl, cartesiaUrl, deepgramUrl] = await Promise.all([
    serve(ec2),
    serve(claude),
    serve(cartesia),
    serve(deepgram),
  ]);
  const sagemaker = { kind: 'sagemaker' as const, endpointUrl: emulator.url, ...AWS };
  const order = (third: string) => (sagemakerFails ? ['sm', 'ec2', third] : [third, 'ec2', 'sm']);
  const config: RouterConfig = {
    providers: {
      sm: {
        ...sagemaker,
        endpointName: 'llm',
        chat: { models: { fast: 'default' }, payload: 'openai-chat' },
      },
      smTts: { ...sagemaker, endpointName: 'sonic', tts: { payload: 'raw-pcm', voices: { agent: 'v' } } },
      smStt: { ...sagemaker, endpointName: 'whisper', stt: { payload: 'wav' } },
      ec2: {
        kind: 'openai-compatible',
        baseUrl: `${ec2Url}/v1`,
        chat: { models: { fast: 'llama' } },
        tts: { voices: { agent: 'af_heart' } },
        stt: { model: 'whisper' },
      },
      claude: { kind: 'anthropic', baseUrl: claudeUrl, apiKey: KEY, chat: { models: { fast: 'claude' } } },
      cartesia: {
        kind: 'cartesia',
        baseUrl: cartesiaUrl,
        apiKey: KEY,
        tts: { voices: { agent: 'c-voice' }, transport: 'bytes' },
      },
      deepgram: {
        kind: 'deepgram',
        baseUrl: deepgramUrl,
        apiKey: KEY,
        stt: { model: 'nova-3', smartFormat: true },
      },
    },
    routes: {
      chat: { providers: order('claude'), strategy: 'priority' },
      tts: {
        providers: order('cartesia').map((p) => (p === 'sm' ? 'smTts' : p)),
        strategy: 'priority',
      },
      stt: { providers: order('deepgram').map((p) => (p === 'sm' ? 'smStt' : p)), strategy: 'priority' },
    },
  };
  return { r: router(config), emulator, ec2, claude, cartesia, deepgram };
}

const textOf = (items: ChatEvent[]) => items.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
const statusOf = (error: unknown) => [ProviderError.isInstance(error), (error as ProviderError).status];

describe('issue 5: a route of [SageMaker, self-hosted OpenAI-compatible, third party] falls back across all three', () => {
  it('issue 5: chat: SageMaker 503, EC2 503 -> Anthropic serves', async () => {
    const { r, emulator, ec2 } = await mixed(true);
    const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(textOf(items)).toBe('From Claude.');
    const result = await stream.result;
    expect(outcomes(result)).toEqual([
      ['sm', 'failed'],
      ['ec2', 'failed'],
      ['claude', 'success'],
    ]);
    expect(result.attempts.slice(0, 2).map((a) => statusOf(a.error))).toEqual([
      [true, 503],
      [true, 503],
    ]);
    expect((result.attempts[0]!.error as ProviderError).providerCode).toBe('ServiceUnavailable');
    expect([emulator.requests.length, ec2.calls('chat')]).toEqual([1, 1]);
  });

  it('issue 5: tts: SageMaker 503, EC2 503 -> Cartesia serves, exact bytes in PCM 24 kHz', async () => {
    const { r } = await mixed(true);
    const text = 'Your table is booked.';
    const stream = r.tts({ text, voice: 'agent', format: PCM24K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(sameBytes(concat(items.map((c) => c.data)), mockCartesiaAudio(text, PCM24K))).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['smTts', 'failed'],
      ['ec2', 'failed'],
      ['cartesia', 'success'],
    ]);
  });

  it('issue 5: stt: SageMaker 503, EC2 503 -> Deepgram hears the whole utterance and serves', async () => {
    const { r, deepgram } = await mixed(true);
    const pcm = syntheticVoiceBytes({ durationMs: 1200, sampleRate: 16_000, seed: 2 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
      ['final', 'Table for two.', 0, 1200],
    ]);
    expect(outcomes(await stream.result)).toEqual([
      ['smStt', 'failed'],
      ['ec2', 'failed'],
      ['deepgram', 'success'],
    ]);
    expect(sameBytes(deepgram.sessions[0]!.audio(), pcm)).toEqual(SAME);
  });

  it('issue 5 (reverse): chat: Anthropic 529, EC2 503 -> SageMaker serves', async () => {
    const { r } = await mixed(false);
    const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(textOf(items)).toBe('From SageMaker.');
    const result = await stream.result;
    expect(outcomes(result)).toEqual([
      ['claude', 'failed'],
      ['ec2', 'failed'],
      ['sm', 'success'],
    ]);
    expect(result.attempts.slice(0, 2).map((a) => statusOf(a.error))).toEqual([
      [true, 529],
      [true, 503],
    ]);
  });

  it('issue 5 (reverse): tts: Cartesia 429, EC2 503 -> SageMaker raw PCM serves, exact bytes', async () => {
    const { r, emulator } = await mixed(false);
    const text = 'Your table is booked.';
    const stream = r.tts({ text, voice: 'agent', format: PCM24K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(sameBytes(concat(items.map((c) => c.data)), mockSpeechPcm(text))).toEqual(SAME);
    expect(outcomes(await stream.result)).toEqual([
      ['cartesia', 'failed'],
      ['ec2', 'failed'],
      ['smTts', 'success'],
    ]);
    expect(emulator.requests).toHaveLength(1);
  });

  it('issue 5 (reverse): stt: Deepgram 1011, EC2 503 -> SageMaker serves the whole utterance', async () => {
    const { r } = await mixed(false);
    const pcm = syntheticVoiceBytes({ durationMs: 400, sampleRate: 16_000, seed: 3 });
    const stream = r.stt({ audio: pieces(pcm, 3200), format: PCM16K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toEqual([{ type: 'final', text: 'from sagemaker', startMs: 0, endMs: 400 }]);
    const result = await stream.result;
    expect(outcomes(result)).toEqual([
      ['deepgram', 'failed'],
      ['ec2', 'failed'],
      ['smStt', 'success'],
    ]);
    expect(result.attempts.slice(0, 2).map((a) => statusOf(a.error))).toEqual([
      [true, 1011],
      [true, 503],
    ]);
  });
});
