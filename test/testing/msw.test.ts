import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockScript } from '../../src/testing/index.js';
import {
  createOpenAiCompatibleMock,
  mockSpeechPcm,
  openAiCompatibleHandlers,
  syntheticWav,
} from '../../src/testing/index.js';
import { expectSameBytes, postJson, readChunks, sseData, sseJson } from './helpers.js';

const BASE = 'https://llm.example.test/v1';
let script: MockScript = {};
const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', chat: 'Hello there.', script: () => script });
const server = setupServer(
  ...openAiCompatibleHandlers({ baseUrl: BASE, provider: mock }),
  ...openAiCompatibleHandlers({
    baseUrl: 'https://vllm.example.test/v1/',
    dialect: 'vllm',
    transcript: 'Ask not.',
  }),
);
const auth = { headers: { authorization: 'Bearer test-key' } };
const chatBody = { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] };
const speechBody = { model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'pcm' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  script = {};
  mock.reset();
});

describe('openAiCompatibleHandlers through msw and the global fetch', () => {
  it('streams chat SSE to fetch', async () => {
    const response = await postJson(`${BASE}/chat/completions`, chatBody, auth);
    expect(response.status).toBe(200);
    const events = sseJson(await response.text()) as Array<{
      choices?: Array<{ delta: { content?: string } }>;
    }>;
    expect(events.map((e) => (e === ('[DONE]' as never) ? e : e.choices?.[0]?.delta.content))).toEqual([
      '',
      'Hello ',
      'there.',
      undefined,
      '[DONE]',
    ]);
    expect(mock.requests[0]).toMatchObject({ endpoint: 'chat', outcome: 'completed', chunksSent: 5 });
  });

  it('serves speech pcm in chunkBytes pieces with the synthetic voice bytes', async () => {
    script = { chunkBytes: 999 };
    const response = await postJson(`${BASE}/audio/speech`, speechBody, auth);
    const chunks = await readChunks(response);
    expect(chunks.map((c) => c.byteLength)).toEqual([...Array<number>(14).fill(999), 14400 - 14 * 999]);
    expectSameBytes(new Uint8Array(Buffer.concat(chunks)), mockSpeechPcm('Hello'));
  });

  it('a handler set made from options (vLLM dialect) serves multipart transcription streaming', async () => {
    const body = new FormData();
    body.append(
      'file',
      new Blob([
        syntheticWav({ durationMs: 100, format: { encoding: 'pcm_s16le', sampleRate: 16000 } }) as BlobPart,
      ]),
      'a.wav',
    );
    body.append('model', 'whisper');
    body.append('stream', 'true');
    const response = await fetch('https://vllm.example.test/v1/audio/transcriptions', {
      method: 'POST',
      body,
    });
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.slice(0, 2).map((d) => JSON.parse(d).choices[0].delta.content)).toEqual(['Ask ', 'not.']);
  });

  it('fails with the status and Retry-After, and checks the key', async () => {
    script = { failTimes: 1, failStatus: 503, retryAfter: '3' };
    const failed = await postJson(`${BASE}/audio/speech`, speechBody, auth);
    expect([failed.status, failed.headers.get('retry-after')]).toEqual([503, '3']);
    expect((await postJson(`${BASE}/audio/speech`, speechBody, auth)).status).toBe(200);
    expect((await postJson(`${BASE}/audio/speech`, speechBody)).status).toBe(401);
  });

  it('reset before the headers is Response.error(): fetch rejects with TypeError', async () => {
    script = { resetAfterChunks: 0 };
    const error = await postJson(`${BASE}/chat/completions`, chatBody, auth).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(mock.requests[0]).toMatchObject({ outcome: 'reset', chunksSent: 0 });
  });

  it('reset after K chunks errors the body: K chunks arrive, then the read rejects with TypeError terminated', async () => {
    script = { chunkBytes: 1000, resetAfterChunks: 2 };
    const response = await postJson(`${BASE}/audio/speech`, speechBody, auth);
    const reader = response.body!.getReader();
    const sizes = [(await reader.read()).value!.byteLength, (await reader.read()).value!.byteLength];
    expect(sizes).toEqual([1000, 1000]);
    const error = await reader.read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'terminated', cause: { code: 'ECONNRESET' } });
    expect(mock.requests[0]).toMatchObject({ outcome: 'reset', chunksSent: 2 });
  });

  it('a stall ends when the client aborts: the read rejects and the record shows the disconnect', async () => {
    script = { stallAfterChunks: 1 };
    const controller = new AbortController();
    const response = await postJson(`${BASE}/chat/completions`, chatBody, {
      ...auth,
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await mock.requests[0]!.ended).toBe('aborted');
    expect(mock.requests[0]).toMatchObject({ aborted: true, chunksSent: 1 });
  });
});
