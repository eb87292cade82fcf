import { describe, expect, it } from 'vitest';
import { type ChatEvent, ProviderError } from '../../../src/index.js';
import {
  createAnthropicMock,
  createCartesiaMock,
  createDeepgramMock,
  createElevenLabsMock,
  createOpenAiCompatibleMock,
  mockElevenLabsAudio,
  syntheticAudio,
} from '../../../src/testing/index.js';
import {
  concat,
  drain,
  outcomes,
  PCM16K,
  pieces,
  router,
  SAME,
  sameBytes,
  serve,
  ULAW8K,
} from './helpers.js';

const CARTESIA_KEY = 'sk_car_e2e_000111';
const ELEVEN_KEY = 'xi-e2e-222333';
const DEEPGRAM_KEY = 'dg-e2e-444555';
const ANTHROPIC_KEY = 'sk-ant-e2e-666777';

describe('issue 4: falling back across provider kinds before the first chunk (loopback sockets)', () => {
  it('issue 4: Cartesia TTS failing 429 -> ElevenLabs serves mu-law 8 kHz natively, byte for byte, every chunk labelled mulaw 8000', async () => {
    const text = 'Your table for four is booked at eight.';
    const cartesia = createCartesiaMock({
      apiKey: CARTESIA_KEY,
      script: { bytes: { failTimes: 9, failStatus: 429, retryAfter: '3' } },
    });
    const eleven = createElevenLabsMock({ apiKey: ELEVEN_KEY, script: { stream: { chunkBytes: 1001 } } });
    const [cUrl, eUrl] = await Promise.all([serve(cartesia), serve(eleven)]);
    const r = router({
      providers: {
        sonic: {
          kind: 'cartesia',
          baseUrl: cUrl,
          apiKey: CARTESIA_KEY,
          tts: { voices: { agent: 'sonic-voice' }, transport: 'bytes' },
        },
        eleven: {
          kind: 'elevenlabs',
          baseUrl: eUrl,
          apiKey: ELEVEN_KEY,
          tts: { voices: { agent: 'el-voice' }, transport: 'http' },
        },
      },
      routes: { tts: { providers: ['sonic', 'eleven'], strategy: 'priority' } },
    });
    const stream = r.tts({ text, voice: 'agent', format: ULAW8K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(sameBytes(concat(items.map((c) => c.data)), mockElevenLabsAudio(text, ULAW8K))).toEqual(SAME);
    expect(items.length).toBeGreaterThan(1);
    for (const chunk of items) {
      expect([chunk.format.encoding, chunk.format.sampleRate]).toEqual(['mulaw', 8000]);
    }
    const result = await stream.result;
    expect(result.provider).toBe('eleven');
    expect(outcomes(result)).toEqual([
      ['sonic', 'failed'],
      ['eleven', 'success'],
    ]);
    const failure = result.attempts[0]!.error as ProviderError;
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect([failure.status, failure.retryable, failure.retryAfterMs]).toEqual([429, true, 3000]);
    expect(failure.message).not.toContain(CARTESIA_KEY);
    // Cartesia was asked for the caller's format natively, and so was ElevenLabs.
    expect(cartesia.requests[0]!.body).toMatchObject({
      output_format: { container: 'raw', encoding: 'pcm_mulaw', sample_rate: 8000 },
    });
    expect(eleven.requests).toHaveLength(1);
    expect(new URL(eleven.requests[0]!.url).searchParams.get('output_format')).toBe('ulaw_8000');
  });

  it('issue 4: Deepgram STT closing 1011 before any transcript -> Cartesia STT hears the whole audio and serves', async () => {
    const deepgram = createDeepgramMock({
      apiKey: DEEPGRAM_KEY,
      inactivityTimeoutMs: 0,
      script: { listen: { closeAfterChunks: 0, closeCode: 1011, closeReason: 'NET-0000 upstream down' } },
    });
    const cartesia = createCartesiaMock({ apiKey: CARTESIA_KEY, transcript: 'Book a table for two.' });
    const [dUrl, cUrl] = await Promise.all([serve(deepgram), serve(cartesia)]);
    const r = router({
      providers: {
        dg: { kind: 'deepgram', baseUrl: dUrl, apiKey: DEEPGRAM_KEY, stt: { model: 'nova-3' } },
        sonic: { kind: 'cartesia', baseUrl: cUrl, apiKey: CARTESIA_KEY, stt: { model: 'ink-whisper' } },
      },
      routes: { stt: { providers: ['dg', 'sonic'], strategy: 'priority' } },
    });
    const pcm = syntheticAudio({ durationMs: 1500, format: PCM16K });
    const stream = r.stt({ audio: pieces(pcm, 3001), format: PCM16K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'Book a table for two.']]);
    const result = await stream.result;
    expect(outcomes(result)).toEqual([
      ['dg', 'failed'],
      ['sonic', 'success'],
    ]);
    const failure = result.attempts[0]!.error as ProviderError;
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect([failure.status, failure.retryable, failure.partialOutput]).toEqual([1011, true, false]);
    // Cartesia heard every byte of the caller's audio, from the start.
    const socket = cartesia.sockets[0]!;
    const heard = concat(socket.frames.flatMap((f) => (f.type === 'binary' ? [f.data] : [])));
    expect(sameBytes(heard, pcm)).toEqual(SAME);
    expect(new URL(socket.url).searchParams.get('encoding')).toBe('pcm_s16le');
    expect(new URL(socket.url).searchParams.get('sample_rate')).toBe('16000');
  });

  it('issue 4: Anthropic answering 529 -> the OpenAI-compatible provider streams the whole reply', async () => {
    const claude = createAnthropicMock({
      apiKey: ANTHROPIC_KEY,
      script: { failTimes: 9, failStatus: 529 },
    });
    const ec2 = createOpenAiCompatibleMock({
      dialect: 'vllm',
      chat: { deltas: ['Table ', 'for ', 'four.'] },
    });
    const [aUrl, oUrl] = await Promise.all([serve(claude), serve(ec2)]);
    const r = router({
      providers: {
        claude: {
          kind: 'anthropic',
          baseUrl: aUrl,
          apiKey: ANTHROPIC_KEY,
          chat: { models: { fast: 'claude-haiku-4-5' } },
        },
        ec2: { kind: 'openai-compatible', baseUrl: `${oUrl}/v1`, chat: { models: { fast: 'llama' } } },
      },
      routes: { chat: { providers: ['claude', 'ec2'], strategy: 'priority' } },
    });
    const stream = r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Four please.' }] });
    const { items, error } = await drain<ChatEvent>(stream);
    expect(error).toBeUndefined();
    expect(items.slice(0, 3)).toEqual([
      { type: 'text-delta', text: 'Table ' },
      { type: 'text-delta', text: 'for ' },
      { type: 'text-delta', text: 'four.' },
    ]);
    expect(items.slice(3).map((e) => e.type)).toEqual(['finish']);
    const result = await stream.result;
    expect(outcomes(result)).toEqual([
      ['claude', 'failed'],
      ['ec2', 'success'],
    ]);
    const failure = result.attempts[0]!.error as ProviderError;
    expect([ProviderError.isInstance(failure), failure.status, failure.retryable]).toEqual([true, 529, true]);
    expect(failure.message).not.toContain(ANTHROPIC_KEY);
    expect([claude.calls(), ec2.calls('chat')]).toEqual([1, 1]);
  });
});
