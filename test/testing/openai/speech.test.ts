import { describe, expect, it } from 'vitest';
import {
  createOpenAiCompatibleMock,
  mockSpeechPcm,
  syntheticVoiceBytes,
} from '../../../src/testing/index.js';
import { expectSameBytes, jsonRequest, readChunks, sseJson } from '../helpers.js';

const concat = (chunks: Uint8Array[]) => new Uint8Array(Buffer.concat(chunks));

describe('mockSpeechPcm', () => {
  it('is the synthetic voice for 60 ms a character at 24 kHz, shorter at higher speed', () => {
    expectSameBytes(mockSpeechPcm('Hello'), syntheticVoiceBytes({ durationMs: 300, sampleRate: 24000 }));
    expect(mockSpeechPcm('Hello', { speed: 2 }).byteLength).toBe(150 * 24 * 2);
    expect(mockSpeechPcm('héllo').byteLength).toBe(300 * 24 * 2);
  });
});

describe('mock speech', () => {
  it('pcm: the synthetic voice bytes, in chunkBytes pieces (odd sizes kept), as application/octet-stream', async () => {
    const mock = createOpenAiCompatibleMock({ script: { chunkBytes: 4063 } });
    const response = await mock.handle(
      jsonRequest('/audio/speech', {
        model: 'tts-1',
        input: 'Your table is booked.',
        voice: 'alloy',
        response_format: 'pcm',
      }),
    );
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const chunks = await readChunks(response);
    const expected = mockSpeechPcm('Your table is booked.');
    expect(expected.byteLength).toBe(1260 * 48);
    expect(chunks.map((c) => c.byteLength)).toEqual([...Array(14).fill(4063), 60480 - 14 * 4063]);
    expectSameBytes(concat(chunks), expected);
  });

  it('pcm from Kokoro is audio/pcm with X-Accel-Buffering: no (PROTOCOLS 6.2)', async () => {
    const response = await createOpenAiCompatibleMock({ dialect: 'kokoro' }).handle(
      jsonRequest('/audio/speech', {
        model: 'kokoro',
        input: 'Hi',
        voice: 'af_heart',
        response_format: 'pcm',
      }),
    );
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expectSameBytes(new Uint8Array(await response.arrayBuffer()), mockSpeechPcm('Hi'));
  });

  it('wav: a streamed header with placeholder sizes, then the PCM', async () => {
    const response = await createOpenAiCompatibleMock().handle(
      jsonRequest('/audio/speech', {
        model: 'tts-1',
        input: 'Hi there',
        voice: 'alloy',
        response_format: 'wav',
      }),
    );
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const body = new Uint8Array(await response.arrayBuffer());
    const view = new DataView(body.buffer);
    expect(new TextDecoder().decode(body.subarray(0, 4))).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(0xffffffff);
    expect(view.getUint32(24, true)).toBe(24000);
    expect(view.getUint32(40, true)).toBe(0xffffffff);
    expectSameBytes(body.subarray(44), mockSpeechPcm('Hi there'));
  });

  it('sse: speech.audio.delta frames of base64 PCM, then speech.audio.done with usage, no [DONE]', async () => {
    const mock = createOpenAiCompatibleMock({ script: { chunkBytes: 9600 } });
    const response = await mock.handle(
      jsonRequest('/audio/speech', {
        model: 'gpt-4o-mini-tts',
        input: 'Hello',
        voice: 'alloy',
        response_format: 'pcm',
        stream_format: 'sse',
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseJson(await response.text()) as Array<{ type: string; audio?: string }>;
    expect(events.map((e) => e.type)).toEqual([
      'speech.audio.delta',
      'speech.audio.delta',
      'speech.audio.done',
    ]);
    expect(events[2]).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 2, output_tokens: 2, total_tokens: 4 },
    });
    const audio = events.slice(0, 2).map((e) => new Uint8Array(Buffer.from(e.audio!, 'base64')));
    expect(audio.map((a) => a.byteLength)).toEqual([9600, 4800]);
    expectSameBytes(concat(audio), mockSpeechPcm('Hello'));
  });

  it('speaches: SSE is always PCM at sample_rate, with token_usage zeros (PROTOCOLS 6.3)', async () => {
    const response = await createOpenAiCompatibleMock({ dialect: 'speaches' }).handle(
      jsonRequest('/audio/speech', {
        model: 'kokoro',
        input: 'Hi',
        voice: 'af',
        response_format: 'mp3',
        stream_format: 'sse',
        sample_rate: 16000,
      }),
    );
    const events = sseJson(await response.text()) as Array<{ type: string; audio?: string }>;
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    });
    expectSameBytes(
      new Uint8Array(Buffer.from(events[0]!.audio!, 'base64')),
      mockSpeechPcm('Hi', { sampleRate: 16000 }),
    );
  });

  it('Kokoro ignores stream_format sse and streams raw audio', async () => {
    const response = await createOpenAiCompatibleMock({ dialect: 'kokoro' }).handle(
      jsonRequest('/audio/speech', {
        model: 'kokoro',
        input: 'Hi',
        response_format: 'pcm',
        stream_format: 'sse',
      }),
    );
    expect(response.headers.get('content-type')).toBe('audio/pcm');
  });

  it('refuses compressed formats (mp3 is the default) and empty input with a 400', async () => {
    const mock = createOpenAiCompatibleMock();
    const mp3 = await mock.handle(
      jsonRequest('/audio/speech', { model: 'tts-1', input: 'Hi', voice: 'alloy' }),
    );
    expect(mp3.status).toBe(400);
    expect(((await mp3.json()) as { error: { message: string } }).error.message).toBe(
      "response_format 'mp3' is not served by the mock server: use 'pcm' or 'wav'",
    );
    const empty = await mock.handle(
      jsonRequest('/audio/speech', { model: 'tts-1', input: '', response_format: 'pcm' }),
    );
    expect(empty.status).toBe(400);
    const kokoro = await createOpenAiCompatibleMock({ dialect: 'kokoro' }).handle(
      jsonRequest('/audio/speech', { model: 'kokoro', input: '', response_format: 'pcm' }),
    );
    expect(await kokoro.json()).toEqual({
      detail: {
        error: 'validation_error',
        message: "'input' must be a non-empty string",
        type: 'invalid_request_error',
      },
    });
  });
});
