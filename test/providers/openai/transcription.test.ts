import { describe, expect, it } from 'vitest';
import { AbortError, ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import type { OpenAiSttOptions } from '../../../src/providers/openai/options.js';
import type { ProviderSttRequest } from '../../../src/providers/types.js';
import type { TranscriptEvent } from '../../../src/types/transcript.js';
import { serverPerTest } from '../../helpers/server-per-test.js';
import { wavHeaderByHand } from '../../helpers/wav-header.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  data,
  fromChunks,
  type RecordedRequest,
  sendJson,
  sendSse,
  type startServer,
} from './helpers.js';

/** 0.5 s of 16 kHz PCM s16le (16000 bytes) in three uneven chunks. */
const pcm = Buffer.from(Array.from({ length: 16000 }, (_, i) => (i * 7) % 256));
function audioRequest(overrides: Partial<ProviderSttRequest> = {}): ProviderSttRequest {
  return {
    audio: fromChunks([pcm.subarray(0, 5000), pcm.subarray(5000, 11002), pcm.subarray(11002)]),
    format: { encoding: 'pcm_s16le', sampleRate: 16000 },
    language: 'en-US',
    interim: true,
    ...overrides,
  };
}

/** The 44-byte header of a 16 kHz mono s16le WAV of `dataBytes`, written by hand. */
const expectedWavHeader = (dataBytes: number): Buffer => wavHeaderByHand(16000, dataBytes);

async function formOf(req: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(req.body), {
    headers: { 'content-type': String(req.headers['content-type']) },
  }).formData();
}

function keysOf(form: FormData): string[] {
  const keys: string[] = [];
  form.forEach((_value, key) => {
    keys.push(key);
  });
  return keys;
}

/** A loopback server and an HTTP transport per test, closed after it. */
const loop = serverPerTest();

async function transcribe(
  stt: OpenAiSttOptions,
  respond: Parameters<typeof startServer>[0],
  req: ProviderSttRequest = audioRequest(),
): Promise<AsyncIterable<TranscriptEvent>> {
  const server = await loop.serve(respond);
  const adapter = createOpenAiAdapter({
    name: 'speaches',
    kind: 'openai-compatible',
    baseUrl: `${server.origin}/v1`,
    apiKey: 'stt-key',
    stt,
  });
  return adapter.stt!.transcribe(req, attemptOf(loop.transport));
}

const streaming: OpenAiSttOptions = { model: 'whisper-large-v3', streaming: true };

describe('OpenAI transcription request', () => {
  it('sends the audio as a WAV file part with the exact size, then model, language, response_format, stream', async () => {
    await collect(await transcribe(streaming, (_req, res) => sendJson(res, 200, { text: 'ok' })));
    const [req] = loop.server.requests;
    expect(req?.path).toBe('/v1/audio/transcriptions');
    expect(req?.headers.authorization).toBe('Bearer stt-key');
    expect(req?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=----voxroute[0-9a-f]{24}$/);
    const form = await formOf(req!);
    expect(keysOf(form)).toEqual(['file', 'model', 'language', 'response_format', 'stream']);
    const file = form.get('file') as File;
    expect(file.name).toBe('audio.wav');
    expect(file.type).toBe('audio/wav');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(44 + 16000);
    expect(bytes.subarray(0, 44).equals(expectedWavHeader(16000))).toBe(true);
    expect(bytes.subarray(44).equals(pcm)).toBe(true);
    expect(form.get('model')).toBe('whisper-large-v3');
    expect(form.get('language')).toBe('en');
    expect(form.get('response_format')).toBe('json');
    expect(form.get('stream')).toBe('true');
  });

  it('leaves stream and language out when not streaming and no language is given', async () => {
    const events = await collect(
      await transcribe(
        { model: 'whisper-1', streaming: false },
        (_req, res) => sendJson(res, 200, { text: ' Hello there. ' }),
        {
          ...audioRequest({ interim: false }),
          language: undefined,
        },
      ),
    );
    expect(events).toEqual([{ type: 'final', text: 'Hello there.', startMs: 0, endMs: 500 }]);
    const form = await formOf(loop.server.requests[0]!);
    expect(keysOf(form)).toEqual(['file', 'model', 'response_format']);
    expect(loop.server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('sends nothing and yields nothing for empty audio', async () => {
    const events = await collect(
      await transcribe(
        streaming,
        (_req, res) => sendJson(res, 200, { text: 'x' }),
        audioRequest({ audio: fromChunks([]) }),
      ),
    );
    expect(events).toEqual([]);
    expect(loop.server.requests).toHaveLength(0);
  });

  it('aborting while the caller is still sending audio rejects with AbortError and sends nothing', async () => {
    const server = await loop.serve((_req, res) => sendJson(res, 200, { text: 'x' }));
    const adapter = createOpenAiAdapter({
      name: 's',
      kind: 'openai-compatible',
      baseUrl: `${server.origin}/v1`,
      stt: streaming,
    });
    const controller = new AbortController();
    async function* slowAudio() {
      yield new Uint8Array(320);
      controller.abort();
      await new Promise(() => {});
    }
    const { error } = await collectUntilError(
      adapter.stt!.transcribe(
        audioRequest({ audio: slowAudio() }),
        attemptOf(loop.transport, controller.signal),
      ),
    );
    expect(AbortError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('OpenAI transcription streams', () => {
  it('OpenAI dialect: partials with the text so far, then one final from done ([DONE] tolerated)', async () => {
    const events = await collect(
      await transcribe(streaming, (_req, res) =>
        sendSse(res, [
          data({
            type: 'transcript.text.delta',
            delta: 'I',
            logprobs: [{ token: 'I', logprob: -0.1, bytes: [73] }],
            segment_id: 's1',
          }),
          data({ type: 'transcript.text.delta', delta: ' see', logprobs: null }),
          data({ type: 'transcript.text.delta', delta: ' skies.' }),
          data({
            type: 'transcript.text.done',
            text: 'I see skies.',
            usage: { type: 'tokens', input_tokens: 14, output_tokens: 4, total_tokens: 18 },
          }),
          data('[DONE]'),
        ]),
      ),
    );
    expect(events).toEqual([
      { type: 'partial', text: 'I', startMs: 0 },
      { type: 'partial', text: 'I see', startMs: 0 },
      { type: 'partial', text: 'I see skies.', startMs: 0 },
      { type: 'final', text: 'I see skies.', startMs: 0, endMs: 500 },
    ]);
  });

  it('speaches dialect: per-segment deltas, then done, no [DONE]; no partials without interim', async () => {
    const respond: Parameters<typeof startServer>[0] = (_req, res) =>
      sendSse(res, [
        data({ type: 'transcript.text.delta', delta: ' And so, my fellow Americans,', logprobs: null }),
        data({
          type: 'transcript.text.delta',
          delta: ' ask not what your country can do for you.',
          logprobs: null,
        }),
        data({
          type: 'transcript.text.done',
          text: ' And so, my fellow Americans, ask not what your country can do for you.',
          logprobs: null,
        }),
      ]);
    expect(await collect(await transcribe(streaming, respond))).toEqual([
      { type: 'partial', text: 'And so, my fellow Americans,', startMs: 0 },
      {
        type: 'partial',
        text: 'And so, my fellow Americans, ask not what your country can do for you.',
        startMs: 0,
      },
      {
        type: 'final',
        text: 'And so, my fellow Americans, ask not what your country can do for you.',
        startMs: 0,
        endMs: 500,
      },
    ]);
    await loop.close();
    expect(await collect(await transcribe(streaming, respond, audioRequest({ interim: false })))).toEqual([
      {
        type: 'final',
        text: 'And so, my fellow Americans, ask not what your country can do for you.',
        startMs: 0,
        endMs: 500,
      },
    ]);
  });

  it('vLLM dialect: chat-like transcription.chunk deltas, final is their concatenation at [DONE]', async () => {
    const chunk = (content: string, finish: string | null = null) => ({
      id: 'trsc-1',
      object: 'transcription.chunk',
      created: 1,
      model: 'openai/whisper-large-v3',
      choices: [{ delta: { content }, finish_reason: finish, stop_reason: null }],
    });
    const events = await collect(
      await transcribe(streaming, (_req, res) =>
        sendSse(res, [
          data(chunk(' The birch')),
          data(chunk(' canoe slid')),
          data(chunk(' on the planks.', 'stop')),
          data('[DONE]'),
        ]),
      ),
    );
    expect(events).toEqual([
      { type: 'partial', text: 'The birch', startMs: 0 },
      { type: 'partial', text: 'The birch canoe slid', startMs: 0 },
      { type: 'partial', text: 'The birch canoe slid on the planks.', startMs: 0 },
      { type: 'final', text: 'The birch canoe slid on the planks.', startMs: 0, endMs: 500 },
    ]);
  });

  it('a JSON answer to a streaming request (whisper-1 ignores stream) gives one final', async () => {
    const events = await collect(
      await transcribe(streaming, (_req, res) => sendJson(res, 200, { text: 'Plain answer.' })),
    );
    expect(events).toEqual([{ type: 'final', text: 'Plain answer.', startMs: 0, endMs: 500 }]);
  });

  it('C06: an error event after a partial is a ProviderError with partialOutput', async () => {
    const { items, error } = await collectUntilError(
      await transcribe(streaming, (_req, res) =>
        sendSse(res, [
          data({ type: 'transcript.text.delta', delta: 'Par' }),
          `event: error\n${data({ error: { type: 'server_error', code: 'overloaded', message: 'busy' } })}`,
        ]),
      ),
    );
    expect(items).toEqual([{ type: 'partial', text: 'Par', startMs: 0 }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      providerCode: 'overloaded',
      retryable: true,
      partialOutput: true,
      provider: 'speaches',
    });
  });

  it('C29: a stream cut before done or [DONE] is truncated', async () => {
    const { items, error } = await collectUntilError(
      await transcribe(streaming, (_req, res) =>
        sendSse(res, [
          data({ type: 'transcript.text.delta', delta: 'half' }),
          data({ type: 'transcript.text.delta', delta: ' a' }),
        ]),
      ),
    );
    expect(items).toHaveLength(2);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
  });

  it('a malformed event is a ProtocolError', async () => {
    const { error } = await collectUntilError(
      await transcribe(streaming, (_req, res) =>
        sendSse(res, ['data: {"type":"transcript.text.delta","delta":\n\n']),
      ),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ partialOutput: false });
  });

  it('a non-JSON 200 answer is a ProtocolError', async () => {
    const { error } = await collectUntilError(
      await transcribe({ model: 'w', streaming: false }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('hello');
      }),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
  });

  it('HTTP 413 from a FastAPI server is a non-retryable ProviderError', async () => {
    const { error } = await collectUntilError(
      await transcribe(streaming, (_req, res) => sendJson(res, 413, { detail: 'File too large' })),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 413, retryable: false });
  });
});

describe('OpenAI transcription JSON answers', () => {
  it('a 200 JSON answer holding an error object is a ProviderError, not a transcript', async () => {
    const { items, error } = await collectUntilError(
      await transcribe({ model: 'w', streaming: false }, (_req, res) =>
        sendJson(res, 200, {
          error: { message: 'audio too short', type: 'invalid_request_error', code: 'audio_too_short' },
        }),
      ),
    );
    expect(items).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ providerCode: 'audio_too_short', retryable: false, partialOutput: false });
  });
});
