import { describe, expect, it } from 'vitest';
import type { OpenAiDialect } from '../../../src/testing/index.js';
import { createOpenAiCompatibleMock, syntheticWav } from '../../../src/testing/index.js';
import { expectSameBytes, sseJson } from '../helpers.js';

const wav = syntheticWav({ durationMs: 1500, format: { encoding: 'pcm_s16le', sampleRate: 16000 } });

function form(fields: Record<string, string>, file: Uint8Array | null = wav): Request {
  const body = new FormData();
  if (file) body.append('file', new Blob([file as BlobPart], { type: 'audio/wav' }), 'speech.wav');
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return new Request('http://mock.test/v1/audio/transcriptions', { method: 'POST', body });
}

const transcribe = async (
  dialect: OpenAiDialect,
  fields: Record<string, string>,
  transcript = 'Ask not. Ask what.',
) => createOpenAiCompatibleMock({ dialect, transcript }).handle(form({ model: 'whisper', ...fields }));

describe('mock transcription', () => {
  it('openai: transcript.text.delta per word then transcript.text.done with usage, no [DONE] (PROTOCOLS 2.4)', async () => {
    const response = await transcribe('openai', { stream: 'true' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(sseJson(await response.text())).toEqual([
      { type: 'transcript.text.delta', delta: 'Ask ' },
      { type: 'transcript.text.delta', delta: 'not. ' },
      { type: 'transcript.text.delta', delta: 'Ask ' },
      { type: 'transcript.text.delta', delta: 'what.' },
      {
        type: 'transcript.text.done',
        text: 'Ask not. Ask what.',
        usage: {
          type: 'tokens',
          input_tokens: 16,
          input_token_details: { text_tokens: 0, audio_tokens: 16 },
          output_tokens: 4,
          total_tokens: 20,
        },
      },
    ]);
  });

  it('vllm: chat-like transcription.chunk objects, a stop chunk, usage when asked, then [DONE] (PROTOCOLS 6.1)', async () => {
    const response = await transcribe('vllm', { stream: 'true', stream_include_usage: 'true' }, 'Ask not.');
    const head = {
      id: 'trsc-mock-1',
      object: 'transcription.chunk',
      created: 1_700_000_000,
      model: 'whisper',
    };
    expect(sseJson(await response.text())).toEqual([
      { ...head, choices: [{ delta: { content: 'Ask ' }, finish_reason: null, stop_reason: null }] },
      { ...head, choices: [{ delta: { content: 'not.' }, finish_reason: null, stop_reason: null }] },
      { ...head, choices: [{ delta: { content: '' }, finish_reason: 'stop', stop_reason: null }] },
      { ...head, choices: [], usage: { prompt_tokens: 16, completion_tokens: 2, total_tokens: 18 } },
      '[DONE]',
    ]);
  });

  it('speaches: one delta per sentence with logprobs null, then done; no usage, no [DONE] (PROTOCOLS 6.3)', async () => {
    const response = await transcribe('speaches', { stream: 'true' });
    expect(sseJson(await response.text())).toEqual([
      { type: 'transcript.text.delta', delta: 'Ask not. ', logprobs: null },
      { type: 'transcript.text.delta', delta: 'Ask what.', logprobs: null },
      { type: 'transcript.text.done', text: 'Ask not. Ask what.', logprobs: null },
    ]);
  });

  it('non-stream: json, text, and verbose_json with the WAV duration and sentence segments', async () => {
    expect(await (await transcribe('openai', {})).json()).toEqual({ text: 'Ask not. Ask what.' });
    const text = await transcribe('openai', { response_format: 'text' });
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('Ask not. Ask what.');
    const verbose = await transcribe('openai', { response_format: 'verbose_json', language: 'en' });
    expect(await verbose.json()).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 1.5,
      text: 'Ask not. Ask what.',
      segments: [
        { id: 0, start: 0, end: 0.75, text: 'Ask not. ' },
        { id: 1, start: 0.75, end: 1.5, text: 'Ask what.' },
      ],
    });
    const srt = await transcribe('openai', { response_format: 'srt' });
    expect(srt.status).toBe(400);
  });

  it('the transcript can be a function of the uploaded audio; the record keeps the form and the file bytes', async () => {
    const mock = createOpenAiCompatibleMock({
      transcript: ({ audio, call }) => `call ${call}: ${audio.byteLength} bytes`,
    });
    const response = await mock.handle(form({ model: 'whisper-1', language: 'en' }));
    expect(await response.json()).toEqual({ text: `call 1: ${wav.byteLength} bytes` });
    const [record] = mock.requests;
    expect(record).toMatchObject({
      endpoint: 'transcription',
      call: 1,
      form: {
        model: 'whisper-1',
        language: 'en',
        file: { filename: 'speech.wav', contentType: 'audio/wav' },
      },
    });
    const file = record!.form!.file as { bytes: Uint8Array };
    expectSameBytes(file.bytes, wav);
  });

  it('a form without a file is a 400', async () => {
    const response = await createOpenAiCompatibleMock().handle(form({ model: 'whisper-1' }, null));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "'file' must be an uploaded file",
    );
  });
});
