import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  type ChatEvent,
  createRouter,
  MidStreamError,
  ProviderError,
  type RouterConfig,
} from '../../../src/index.js';
import {
  createOpenAiCompatibleMock,
  type MockServer,
  mockSpeechPcm,
  type OpenAiCompatibleMock,
  type SageMakerEmulator,
  sageMakerChatEndpoint,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
  startMockServer,
  startSageMakerEmulator,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import { drain } from '../../helpers/index.js';
import { expectSameBytes } from '../../testing/helpers.js';
import { credentials } from './helpers.js';

let emulator: SageMakerEmulator;
let ec2: OpenAiCompatibleMock;
let ec2Server: MockServer;
let config: RouterConfig;

beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    endpoints: {
      // Each fails its first call with 503 ServiceUnavailable, then serves.
      llm: sageMakerChatEndpoint({ reply: 'From SageMaker.', script: { failTimes: 1, failStatus: 503 } }),
      sonic: sageMakerTtsEndpoint({ payload: 'cartesia', script: { failTimes: 1, failStatus: 503 } }),
      whisper: sageMakerSttEndpoint({
        transcript: 'from sagemaker',
        script: { failTimes: 1, failStatus: 503 },
      }),
      // C21 through the router.
      midstream: {
        reply: { parts: ['{"outputs":["Hel"]}\n', '{"outputs":["lo"]}\n'] },
        script: { errorEventAfterChunks: 1 },
      },
      early: {
        reply: { parts: ['{"outputs":["never"]}\n'] },
        script: { errorEventAfterChunks: 0, errorEvent: { type: 'InternalStreamFailure' } },
      },
    },
  });
  ec2 = createOpenAiCompatibleMock({ dialect: 'vllm', chat: 'From EC2.', transcript: 'from ec2' });
  ec2Server = await startMockServer({ provider: ec2 });
  const sagemaker = {
    kind: 'sagemaker' as const,
    region: 'us-east-1',
    endpointUrl: emulator.url,
    credentials,
  };
  config = {
    providers: {
      smLlm: {
        ...sagemaker,
        endpointName: 'llm',
        chat: { models: { fast: 'default' }, payload: 'openai-chat' },
      },
      smSonic: {
        ...sagemaker,
        endpointName: 'sonic',
        tts: { payload: 'cartesia', voices: { agent: 'sonic-voice' } },
      },
      smWhisper: { ...sagemaker, endpointName: 'whisper', stt: { payload: 'wav' } },
      smMid: {
        ...sagemaker,
        endpointName: 'midstream',
        chat: { models: { fast: 'default' }, payload: 'jsonlines' },
      },
      smEarly: {
        ...sagemaker,
        endpointName: 'early',
        chat: { models: { fast: 'default' }, payload: 'jsonlines' },
      },
      ec2: {
        kind: 'openai-compatible',
        baseUrl: `${ec2Server.url}/v1`,
        chat: { models: { fast: 'llama' } },
        tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
        stt: { model: 'whisper-large-v3' },
      },
    },
    routes: {
      chat: { providers: ['smLlm', 'ec2'], strategy: 'priority' },
      tts: { providers: ['smSonic', 'ec2'], strategy: 'priority' },
      stt: { providers: ['smWhisper', 'ec2'], strategy: 'priority' },
      'chat-mid': { capability: 'chat', providers: ['smMid', 'ec2'], strategy: 'priority' },
      'chat-early': { capability: 'chat', providers: ['smEarly', 'ec2'], strategy: 'priority' },
    },
  };
});
afterAll(async () => {
  await Promise.all([emulator.close(), ec2Server.close()]);
});

const chatRequest = { messages: [{ role: 'user' as const, content: 'Book a table' }], model: 'fast' };
const text = (events: ChatEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');

describe('a route mixing the SageMaker emulator and an OpenAI-compatible server', () => {
  it('chat, tts and stt fall back from SageMaker (503) to EC2, then SageMaker serves the next call', async () => {
    const router = createRouter(config);
    try {
      // chat
      const first = router.chat(chatRequest);
      const firstEvents = await drain(first);
      expect(firstEvents.error).toBeUndefined();
      expect(text(firstEvents.items)).toBe('From EC2.');
      const firstResult = await first.result;
      expect(firstResult.provider).toBe('ec2');
      expect(firstResult.attempts.map((a) => [a.provider, a.outcome])).toEqual([
        ['smLlm', 'failed'],
        ['ec2', 'success'],
      ]);
      const smError = firstResult.attempts[0]!.error as ProviderError;
      expect(ProviderError.isInstance(smError)).toBe(true);
      expect([smError.status, smError.providerCode, smError.retryable]).toEqual([
        503,
        'ServiceUnavailable',
        true,
      ]);
      const second = router.chat(chatRequest);
      expect(text((await drain(second)).items)).toBe('From SageMaker.');
      expect((await second.result).provider).toBe('smLlm');

      // tts
      const speech = router.tts({ text: 'Your table is booked.', voice: 'agent' });
      const audio = await drain(speech);
      expect(audio.error).toBeUndefined();
      expect((await speech.result).provider).toBe('ec2');
      const joined = (chunks: AudioChunk[]) => Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
      expectSameBytes(joined(audio.items), mockSpeechPcm('Your table is booked.'));
      const again = router.tts({ text: 'Your table is booked.', voice: 'agent' });
      expectSameBytes(joined((await drain(again)).items), mockSpeechPcm('Your table is booked.'));
      expect((await again.result).provider).toBe('smSonic');
      expect(emulator.requests.filter((r) => r.endpoint === 'sonic').at(-1)!.body).toMatchObject({
        voice: { mode: 'id', id: 'sonic-voice' },
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24_000 },
      });

      // stt
      const format = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };
      const utterance = syntheticVoiceBytes({ durationMs: 400, sampleRate: 16_000, seed: 1 });
      const audioIn = async function* () {
        yield utterance;
      };
      const heard = router.stt({ audio: audioIn(), format });
      expect((await drain(heard)).items).toEqual([
        expect.objectContaining({ type: 'final', text: 'from ec2' }),
      ]);
      expect((await heard.result).provider).toBe('ec2');
      const heardAgain = router.stt({ audio: audioIn(), format });
      expect((await drain(heardAgain)).items).toEqual([
        { type: 'final', text: 'from sagemaker', startMs: 0, endMs: 400 },
      ]);
      expect((await heardAgain.result).provider).toBe('smWhisper');
    } finally {
      await router.close();
    }
  });

  it('C21: InternalStreamFailure before any PayloadPart falls back transparently', async () => {
    const router = createRouter(config);
    try {
      const stream = router.chat({ ...chatRequest, route: 'chat-early' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(text(items)).toBe('From EC2.');
      const result = await stream.result;
      expect(result.provider).toBe('ec2');
      expect(result.attempts[0]!.error).toMatchObject({
        providerType: 'InternalStreamFailure',
        retryable: true,
        partialOutput: false,
      });
    } finally {
      await router.close();
    }
  });

  it('C21: ModelStreamError after "Hel" ends the call with a retryable MidStreamError and no replay elsewhere', async () => {
    const router = createRouter(config);
    const before = ec2.calls('chat');
    try {
      const { items, error } = await drain(router.chat({ ...chatRequest, route: 'chat-mid' }));
      expect(items).toEqual([{ type: 'text-delta', text: 'Hel' }]);
      expect(MidStreamError.isInstance(error)).toBe(true);
      const mid = error as MidStreamError;
      expect([mid.partialText, mid.partialOutput, mid.retryable, mid.provider]).toEqual([
        'Hel',
        true,
        true,
        'smMid',
      ]);
      expect(mid.cause).toMatchObject({
        providerType: 'ModelStreamError',
        providerCode: 'ModelInvocationTimeExceeded',
        retryable: true,
        partialOutput: true,
      });
      expect(ec2.calls('chat')).toBe(before);
    } finally {
      await router.close();
    }
  });
});
