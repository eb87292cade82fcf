import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { HttpTransport } from '../../../src/transport/types.js';
import { attemptOf, collect, collectUntilError, fromChunks } from './helpers.js';

const BASE = 'https://llm.example.test/v1';
const encoder = new TextEncoder();

/** A streamed SSE response whose frames arrive as separate chunks. */
function sse(frames: string[]): HttpResponse<ReadableStream<Uint8Array>> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const frame of frames) controller.enqueue(encoder.encode(frame));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
}
const frame = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;

const mock = setupServer();
let transport: HttpTransport;
beforeAll(() => {
  mock.listen({ onUnhandledRequest: 'error' });
  transport = createHttpTransport({ fetch: globalThis.fetch });
});
afterEach(() => mock.resetHandlers());
afterAll(async () => {
  await transport.close();
  mock.close();
});

const adapter = createOpenAiAdapter({
  name: 'agg',
  kind: 'openai-compatible',
  baseUrl: BASE,
  apiKey: 'n1n-key',
  headers: { 'HTTP-Referer': 'https://app.example' },
  chat: {},
  tts: { model: 'tts-1', responseFormat: 'pcm', streamFormat: 'audio' },
  stt: { model: 'gpt-4o-transcribe', streaming: true },
});

describe('OpenAI adapter through msw (fetch transport)', () => {
  it('chat: deltas, finish and usage; the request carries the body and exact Authorization', async () => {
    let seen: { auth: string | null; referer: string | null; body: unknown } | undefined;
    mock.use(
      http.post(`${BASE}/chat/completions`, async ({ request }) => {
        seen = {
          auth: request.headers.get('authorization'),
          referer: request.headers.get('http-referer'),
          body: await request.json(),
        };
        return sse([
          frame({
            choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
            usage: null,
          }),
          frame({ choices: [{ index: 0, delta: { content: 'Booked' }, finish_reason: null }], usage: null }),
          frame({ choices: [{ index: 0, delta: { content: ' for 4.' }, finish_reason: null }], usage: null }),
          frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null }),
          frame({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 } }),
          frame('[DONE]'),
        ]);
      }),
    );
    const events = await collect(
      adapter.chat!.chat(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Book a table' }], temperature: 0 },
        attemptOf(transport),
      ),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Booked' },
      { type: 'text-delta', text: ' for 4.' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 30, outputTokens: 4 } },
    ]);
    expect(seen).toEqual({
      auth: 'Bearer n1n-key',
      referer: 'https://app.example',
      body: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Book a table' }],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0,
      },
    });
  });

  it('C06: chat error object after a delta, without an event line', async () => {
    mock.use(
      http.post(`${BASE}/chat/completions`, () =>
        sse([
          frame({ choices: [{ index: 0, delta: { content: 'Par' } }] }),
          frame({ error: { type: 'overloaded_error', code: 'overloaded', message: 'busy' } }),
        ]),
      ),
    );
    const { items, error } = await collectUntilError(
      adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, attemptOf(transport)),
    );
    expect(items).toEqual([{ type: 'text-delta', text: 'Par' }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ providerCode: 'overloaded', retryable: true, partialOutput: true });
  });

  it('C08: padded [DONE] after a usage-only chunk completes normally', async () => {
    mock.use(
      http.post(`${BASE}/chat/completions`, () =>
        sse([
          frame({ choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }),
          frame({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 3 } }),
          'data:  [DONE] \n\n',
        ]),
      ),
    );
    const events = await collect(
      adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, attemptOf(transport)),
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'hi' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 3 } },
    ]);
  });

  it('C29: chat cut after deltas is a truncated ProtocolError', async () => {
    mock.use(
      http.post(`${BASE}/chat/completions`, () =>
        sse(
          ['a', 'b', 'c'].map((t) =>
            frame({ choices: [{ index: 0, delta: { content: t }, finish_reason: null }] }),
          ),
        ),
      ),
    );
    const { items, error } = await collectUntilError(
      adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, attemptOf(transport)),
    );
    expect(items).toHaveLength(3);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
  });

  it('429 with Retry-After is a retryable ProviderError with retryAfterMs', async () => {
    mock.use(
      http.post(`${BASE}/chat/completions`, () =>
        HttpResponse.json(
          {
            error: {
              message: 'Slow down',
              type: 'rate_limit_error',
              code: 'rate_limit_exceeded',
              param: null,
            },
          },
          { status: 429, headers: { 'retry-after': '3' } },
        ),
      ),
    );
    const { error } = await collectUntilError(
      adapter.chat!.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, attemptOf(transport)),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
      providerCode: 'rate_limit_exceeded',
    });
    expect((error as Error).message).not.toContain('n1n-key');
  });

  it('tts: raw PCM bytes pass through unchanged with their format', async () => {
    const pcm = Uint8Array.from({ length: 960 }, (_, i) => (i * 3) % 256);
    let body: unknown;
    mock.use(
      http.post(`${BASE}/audio/speech`, async ({ request }) => {
        body = await request.json();
        return new HttpResponse(pcm, { headers: { 'content-type': 'application/octet-stream' } });
      }),
    );
    const audio = await collect(
      adapter.tts!.synthesize(
        { text: 'Hello', voice: 'alloy', format: { encoding: 'pcm_s16le', sampleRate: 24000 } },
        attemptOf(transport),
      ),
    );
    expect(Buffer.concat(audio.map((a) => a.data)).equals(Buffer.from(pcm))).toBe(true);
    expect(audio.every((a) => a.format.encoding === 'pcm_s16le' && a.format.sampleRate === 24000)).toBe(true);
    expect(body).toEqual({ model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'pcm' });
  });

  it('stt: multipart with the WAV file, streamed OpenAI events to partials and a final', async () => {
    let form: FormData | undefined;
    mock.use(
      http.post(`${BASE}/audio/transcriptions`, async ({ request }) => {
        form = await request.formData();
        return sse([
          frame({ type: 'transcript.text.delta', delta: 'Hi' }),
          frame({ type: 'transcript.text.delta', delta: ' there' }),
          frame({ type: 'transcript.text.done', text: 'Hi there' }),
        ]);
      }),
    );
    const audio = new Uint8Array(3200).fill(1);
    const events = await collect(
      adapter.stt!.transcribe(
        { audio: fromChunks([audio]), format: { encoding: 'pcm_s16le', sampleRate: 16000 }, interim: true },
        attemptOf(transport),
      ),
    );
    expect(events).toEqual([
      { type: 'partial', text: 'Hi', startMs: 0 },
      { type: 'partial', text: 'Hi there', startMs: 0 },
      { type: 'final', text: 'Hi there', startMs: 0, endMs: 100 },
    ]);
    const file = form?.get('file') as File;
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(3244);
    expect(Buffer.from(bytes.subarray(0, 4)).toString('ascii')).toBe('RIFF');
    expect(new DataView(bytes.buffer).getUint32(40, true)).toBe(3200);
    expect(form?.get('model')).toBe('gpt-4o-transcribe');
    expect(form?.get('stream')).toBe('true');
  });
});
