/**
 * Wire gap of the OpenAI-compatible mock (dialect `openai`): OpenAI's gpt transcription models
 * (`gpt-4o-transcribe`, `gpt-4o-mini-transcribe`, their dated and diarize variants) do not
 * produce `verbose_json` (PROTOCOLS.md 2.4: "only `json` for gpt-4o(-mini)-transcribe"; the
 * official client's `TranscriptionCreateParams.response_format`). OpenAI answers a 400
 * `{"error":{"message":"response_format 'verbose_json' is not compatible with model '<model>'.
 * Use 'json' or 'text' instead.","type":"invalid_request_error","param":"response_format",
 * "code":"unsupported_value"}}` (quoted in openai/openai-dotnet#401 and vercel/ai#8214). The mock
 * answered verbose JSON with word times, so an app asking gpt-4o-transcribe for word
 * timestamps passed its CI and failed against OpenAI. It now answers that 400; `json` and
 * `text` still work for those models, `verbose_json` for whisper-1, and the self-hosted
 * dialects keep serving it (their Whisper models produce it).
 */

import OpenAI, { BadRequestError, toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/audio/wav-writer.js';
import {
  createOpenAiCompatibleMock,
  type MockServer,
  type OpenAiDialect,
  startMockServer,
} from '../../src/testing/index.js';

/** 1 s of 16 kHz silence as a WAV file. */
const wav = encodeWav({ encoding: 'pcm_s16le', sampleRate: 16000 }, new Uint8Array(16000 * 2));
const file = () => toFile(wav, 'turn.wav', { type: 'audio/wav' });

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(dialect: OpenAiDialect = 'openai') {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', dialect, transcript: 'Ask not.' });
  server = await startMockServer({ provider: mock });
  return { mock, openai: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 }) };
}

describe("response_format 'verbose_json' with OpenAI's gpt transcription models", () => {
  it.each([
    'gpt-4o-transcribe',
    'gpt-4o-mini-transcribe',
    'gpt-4o-mini-transcribe-2025-12-15',
    'gpt-4o-transcribe-diarize',
  ])('%s: the 400 OpenAI sends, byte for byte in its fields', async (model) => {
    const { mock, openai } = await serve();
    const error = await openai.audio.transcriptions
      .create({
        file: await file(),
        model,
        response_format: 'verbose_json',
        timestamp_granularities: ['word'],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect([bad.status, bad.param, bad.code, bad.type]).toEqual([
      400,
      'response_format',
      'unsupported_value',
      'invalid_request_error',
    ]);
    expect(bad.error).toEqual({
      message: `response_format 'verbose_json' is not compatible with model '${model}'. Use 'json' or 'text' instead.`,
      type: 'invalid_request_error',
      param: 'response_format',
      code: 'unsupported_value',
    });
    expect(mock.requests.map((r) => [r.endpoint, r.status])).toEqual([['transcription', 400]]);
  });

  it('json and text still work for gpt-4o-mini-transcribe; whisper-1 still gets verbose_json', async () => {
    const { openai } = await serve();
    const json = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'gpt-4o-mini-transcribe',
    });
    expect(json).toEqual({ text: 'Ask not.' });
    const text = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'gpt-4o-mini-transcribe',
      response_format: 'text',
    });
    expect(text).toBe('Ask not.');
    const verbose = await openai.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect([verbose.text, verbose.duration]).toEqual(['Ask not.', 1]);
  });

  it.each(['vllm', 'speaches'] as const)(
    'the %s dialect serves verbose_json whatever the model is called',
    async (dialect) => {
      const { openai } = await serve(dialect);
      const verbose = await openai.audio.transcriptions.create({
        file: await file(),
        model: 'gpt-4o-transcribe',
        response_format: 'verbose_json',
      });
      expect([verbose.text, verbose.duration]).toEqual(['Ask not.', 1]);
    },
  );
});
