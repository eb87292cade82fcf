import OpenAI, { APIError, toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer, OpenAiCompatibleMockOptions } from '../../src/testing/index.js';
import {
  createOpenAiCompatibleMock,
  mockSpeechPcm,
  startMockServer,
  syntheticWav,
} from '../../src/testing/index.js';
import { expectSameBytes } from './helpers.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(options: OpenAiCompatibleMockOptions = {}, apiKey = 'test-key', maxRetries = 0) {
  server = await startMockServer({
    provider: createOpenAiCompatibleMock({ apiKey: 'test-key', ...options }),
  });
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries });
}

describe('the official openai client against the loopback mock', () => {
  it('streams chat: deltas, finish_reason and usage', async () => {
    const openai = await client({ chat: 'Your table for four is booked.' });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Book a table for four.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    const finishReasons: Array<string | null> = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        if (choice.delta.content) deltas.push(choice.delta.content);
        if (choice.finish_reason) finishReasons.push(choice.finish_reason);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas).toEqual(['Your ', 'table ', 'for ', 'four ', 'is ', 'booked.']);
    expect(finishReasons).toEqual(['stop']);
    expect(usage).toEqual({ prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 });
    const [record] = server!.requests;
    expect(record!.headers.authorization).toBe('Bearer test-key');
    expect(record!.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streams tool calls that the client assembles', async () => {
    const openai = await client({
      chat: { toolCalls: [{ id: 'call_1', name: 'book', arguments: '{"table":4}' }] },
    });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Book.' }],
      stream: true,
    });
    let name = '';
    let args = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      if (call?.function?.name) name += call.function.name;
      if (call?.function?.arguments) args += call.function.arguments;
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect({ name, args, finish }).toEqual({ name: 'book', args: '{"table":4}', finish: 'tool_calls' });
  });

  it('speech as pcm: the bytes are the synthetic voice bytes exactly', async () => {
    const openai = await client({ script: { chunkBytes: 4063 } });
    const input = 'Your table is booked for seven.';
    const response = await openai.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      input,
      response_format: 'pcm',
    });
    expectSameBytes(new Uint8Array(await response.arrayBuffer()), mockSpeechPcm(input));
    expect(server!.requests[0]!.headers.accept).toBe('application/octet-stream');
  });

  it("speech with the client's defaults (mp3) is a BadRequestError whose message names the format", async () => {
    const openai = await client();
    const error = await openai.audio.speech
      .create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).message).toBe(
      "400 response_format 'mp3' is not served by the mock server: use 'pcm' or 'wav'",
    );
    expect(server!.requests.map((r) => [r.endpoint, r.status])).toEqual([['speech', 400]]);
  });

  it('streams a transcription: transcript.text.delta events then transcript.text.done', async () => {
    const openai = await client({ transcript: ({ audio }) => `Ask not ${audio.byteLength}.` });
    const wav = syntheticWav({ durationMs: 400, format: { encoding: 'pcm_s16le', sampleRate: 16000 } });
    const stream = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav', { type: 'audio/wav' }),
      model: 'gpt-4o-transcribe',
      stream: true,
    });
    const events: Array<{ type: string; delta?: string; text?: string }> = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => [e.type, e.delta ?? e.text])).toEqual([
      ['transcript.text.delta', 'Ask '],
      ['transcript.text.delta', 'not '],
      ['transcript.text.delta', '12844.'],
      ['transcript.text.done', 'Ask not 12844.'],
    ]);
    const { form } = server!.requests[0]!;
    expect(form).toMatchObject({ model: 'gpt-4o-transcribe', stream: 'true' });
    expectSameBytes((form!.file as { bytes: Uint8Array }).bytes, wav);
  });

  it('an error status surfaces as the client APIError with our status and code', async () => {
    const wrongKey = await client({}, 'wrong-key');
    const auth = await wrongKey.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(auth).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    await server!.close();

    const limited = await client({ script: { failTimes: 5, failStatus: 429, retryAfter: '0' } });
    const rate = await limited.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'pcm' })
      .catch((e: unknown) => e);
    expect(rate).toBeInstanceOf(OpenAI.RateLimitError);
    expect(rate).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((rate as APIError).headers?.get('retry-after')).toBe('0');
  });

  it('the client retries 429 with Retry-After: 0 and succeeds on the third call', async () => {
    const openai = await client(
      { script: { failTimes: 2, failStatus: 429, retryAfter: '0' } },
      'test-key',
      2,
    );
    const response = await openai.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hi',
      response_format: 'pcm',
    });
    expectSameBytes(new Uint8Array(await response.arrayBuffer()), mockSpeechPcm('Hi'));
    expect(server!.requests.map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('an error event inside a 200 chat stream is thrown by the client as APIError', async () => {
    const openai = await client({
      chat: 'Partial answer.',
      script: {
        errorEventAfterChunks: 2,
        errorEvent: { message: 'busy', type: 'overloaded_error', code: 'overloaded' },
      },
    });
    const stream = await openai.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream)
        if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    })().catch((e: unknown) => e);
    expect(deltas).toEqual(['Partial ']);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ code: 'overloaded', type: 'overloaded_error', message: 'busy' });
  });
});
