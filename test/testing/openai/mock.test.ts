import { describe, expect, it } from 'vitest';
import type { OpenAiDialect } from '../../../src/testing/index.js';
import { createManualDelay, createOpenAiCompatibleMock } from '../../../src/testing/index.js';
import { jsonRequest } from '../helpers.js';

const chatBody = { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] };
const speechBody = { model: 'tts-1', input: 'Hello', voice: 'alloy', response_format: 'pcm' };

describe('createOpenAiCompatibleMock: auth, routing, errors', () => {
  it('checks the Bearer key when apiKey is set: 401 with an OpenAI error body otherwise', async () => {
    const mock = createOpenAiCompatibleMock({ apiKey: 'test-key' });
    const missing = await mock.handle(jsonRequest('/chat/completions', chatBody));
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: {
        message: "You didn't provide an API key.",
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const wrong = await mock.handle(
      jsonRequest('/chat/completions', chatBody, { authorization: 'Bearer nope' }),
    );
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      'Incorrect API key provided.',
    );
    const right = await mock.handle(
      jsonRequest('/chat/completions', chatBody, { authorization: 'Bearer test-key' }),
    );
    expect(right.status).toBe(200);
    expect(mock.requests.map((r) => r.status)).toEqual([401, 401, 200]);
  });

  it.each<[OpenAiDialect, unknown]>([
    [
      'vllm',
      {
        error: { message: 'Incorrect API key provided.', type: 'UnauthorizedError', param: null, code: 401 },
      },
    ],
    [
      'kokoro',
      {
        detail: {
          error: 'validation_error',
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
        },
      },
    ],
    ['speaches', { detail: 'Incorrect API key provided.' }],
  ])('errors take the %s shape', async (dialect, body) => {
    const mock = createOpenAiCompatibleMock({ dialect, apiKey: 'k' });
    const response = await mock.handle(
      jsonRequest('/chat/completions', chatBody, { authorization: 'Bearer x' }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(body);
  });

  it('404 for an unknown path and 405 for another method, in the dialect shape', async () => {
    const mock = createOpenAiCompatibleMock({ dialect: 'vllm' });
    const missing = await mock.handle(jsonRequest('/embeddings', {}));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404, type: 'NotFoundError' } });
    const get = await mock.handle(new Request('http://mock.test/v1/chat/completions'));
    expect(get.status).toBe(405);
    expect(mock.requests.map((r) => r.endpoint)).toEqual(['unknown', 'chat']);
  });

  it('records method, path, lower-cased headers, parsed body and the time received', async () => {
    let clock = 1234.5;
    const mock = createOpenAiCompatibleMock({ now: () => clock });
    await mock.handle(jsonRequest('/chat/completions', chatBody, { 'X-Trace-Id': 'abc' }));
    clock = 2000;
    await mock.handle(
      new Request('http://mock.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      }),
    );
    const [first, second] = mock.requests;
    expect(first).toMatchObject({
      endpoint: 'chat',
      call: 1,
      method: 'POST',
      path: '/v1/chat/completions',
      url: 'http://mock.test/v1/chat/completions',
      receivedAtMs: 1234.5,
      body: chatBody,
    });
    expect(first!.headers['x-trace-id']).toBe('abc');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(second).toMatchObject({ call: 2, receivedAtMs: 2000, body: '{not json', status: 400 });
  });

  it('fails the first N calls with failStatus, failBody and Retry-After, then answers', async () => {
    const mock = createOpenAiCompatibleMock({
      script: {
        failTimes: 2,
        failStatus: 503,
        retryAfter: '7',
        failBody: { error: { message: 'busy', code: 'busy' } },
      },
    });
    const statuses: number[] = [];
    const retryAfter: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const response = await mock.handle(jsonRequest('/audio/speech', speechBody));
      statuses.push(response.status);
      retryAfter.push(response.headers.get('retry-after'));
      if (i === 0) expect(await response.json()).toEqual({ error: { message: 'busy', code: 'busy' } });
    }
    expect(statuses).toEqual([503, 503, 200]);
    expect(retryAfter).toEqual(['7', '7', null]);
    const plain = createOpenAiCompatibleMock({ script: { failTimes: 1 } });
    const failed = await plain.handle(jsonRequest('/audio/speech', speechBody));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: { message: 'mock failure 1 of 1', type: 'server_error', param: null, code: 'server_error' },
    });
  });

  it('scripts per endpoint, counts calls per endpoint, and reset() starts over', async () => {
    const mock = createOpenAiCompatibleMock({ script: { chat: [{ failTimes: 1, failStatus: 429 }] } });
    expect((await mock.handle(jsonRequest('/audio/speech', speechBody))).status).toBe(200);
    expect((await mock.handle(jsonRequest('/chat/completions', chatBody))).status).toBe(429);
    expect((await mock.handle(jsonRequest('/chat/completions', chatBody))).status).toBe(200);
    expect([mock.calls('chat'), mock.calls('speech'), mock.calls('transcription')]).toEqual([2, 1, 0]);
    mock.reset();
    expect(mock.requests).toEqual([]);
    expect((await mock.handle(jsonRequest('/chat/completions', chatBody))).status).toBe(429);
    expect(mock.requests[0]!.call).toBe(1);
  });

  it('a reply function that throws gives a 500 naming the failure', async () => {
    const mock = createOpenAiCompatibleMock({
      chat: () => {
        throw new Error('no reply scripted');
      },
    });
    const response = await mock.handle(jsonRequest('/chat/completions', chatBody));
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'mock server failed: no reply scripted',
    );
  });
});

describe('script timing through an injected delay (no real time)', () => {
  it('waits headersDelayMs before the headers, firstChunkDelayMs before chunk 1, chunkGapMs between chunks', async () => {
    const time = createManualDelay();
    const mock = createOpenAiCompatibleMock({
      delay: time.delay,
      script: { headersDelayMs: 15, firstChunkDelayMs: 300, chunkGapMs: 20, chunkBytes: 4800 },
    });
    const log: string[] = [];
    const responding = mock.handle(jsonRequest('/audio/speech', speechBody)).then((r) => {
      log.push('headers');
      return r;
    });
    expect(await time.release()).toBe(15);
    const response = await responding;
    const reader = response.body!.getReader();
    const read = () =>
      reader.read().then((r) => {
        log.push(r.done ? 'end' : `chunk ${r.value.byteLength}`);
        return r;
      });
    const first = read();
    expect(await time.release()).toBe(300);
    await first;
    for (let i = 0; i < 2; i++) {
      const next = read();
      expect(await time.release()).toBe(20);
      await next;
    }
    await read();
    expect(log).toEqual(['headers', 'chunk 4800', 'chunk 4800', 'chunk 4800', 'end']);
    expect(time.requested).toEqual([15, 300, 20, 20]);
    expect(mock.requests[0]).toMatchObject({ outcome: 'completed', chunksSent: 3 });
  });
});
