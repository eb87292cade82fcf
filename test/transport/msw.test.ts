import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ProviderError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import { parseJsonEvents } from '../../src/transport/json-events.js';
import { parseSse } from '../../src/transport/sse.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { rejectionOf } from './loopback.js';

const BASE = 'http://msw.test/v1';
/** Streams the given chunks, then (if `hold`) stays open until cancelled. */
function sse(parts: string[], hold = false): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      if (!hold) controller.close();
    },
  });
}

const server = setupServer(
  http.post(
    `${BASE}/chat/completions`,
    () =>
      new HttpResponse(
        sse([
          'data: {"choices":[{"delta":{"content":"Hel"}}]}\r',
          '\n\r\n: keep-alive\r\n\r\n',
          'data: {"choices":[{"delta":{"content":"lo"}}]}\r\n\r\n',
          'data: [DONE]\r\n\r\n',
        ]),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  ),
  http.post(`${BASE}/slow`, () => new HttpResponse(sse(['data: {"n":0}\n\n'], true))),
  http.post(`${BASE}/limited`, () =>
    HttpResponse.json(
      { error: { message: 'Too many requests', type: 'rate_limit_error' } },
      { status: 429, headers: { 'retry-after': '1' } },
    ),
  ),
  http.post(`${BASE}/down`, () => HttpResponse.error()),
);

describe('fetch path intercepted by msw', () => {
  let transport: HttpTransport;

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  afterEach(async () => {
    await transport?.close();
  });

  it('reads an SSE chat stream with CRLF split across chunks and a keep-alive comment', async () => {
    transport = createHttpTransport({ fetch: (input, init) => globalThis.fetch(input, init) });
    const response = await transport.request({
      provider: 'openai',
      method: 'POST',
      url: `${BASE}/chat/completions`,
    });
    const deltas: string[] = [];
    for await (const event of parseJsonEvents(parseSse(response.body), {
      provider: 'openai',
      requireDone: true,
    })) {
      const data = event.data as { choices: { delta: { content: string } }[] };
      deltas.push(data.choices[0]?.delta.content ?? '');
    }
    expect(deltas).toEqual(['Hel', 'lo']);
  });

  it('turns a 429 into a retryable ProviderError with retryAfterMs', async () => {
    transport = createHttpTransport({ fetch: (input, init) => globalThis.fetch(input, init) });
    const error = await rejectionOf(
      transport.request({ provider: 'claude', method: 'POST', url: `${BASE}/limited` }),
    );
    expect(
      ProviderError.isInstance(error) && [error.status, error.retryable, error.retryAfterMs, error.message],
    ).toEqual([429, true, 1000, "Provider 'claude' answered HTTP 429: Too many requests"]);
  });

  it('turns a network error into a retryable ProviderError without status', async () => {
    transport = createHttpTransport({ fetch: (input, init) => globalThis.fetch(input, init) });
    const error = await rejectionOf(
      transport.request({ provider: 'x', method: 'POST', url: `${BASE}/down` }),
    );
    expect(ProviderError.isInstance(error) && [error.status, error.retryable]).toEqual([undefined, true]);
  });

  it("aborting mid-stream rejects with AbortError and aborts the fetch's own signal", async () => {
    let fetchSignal: AbortSignal | undefined;
    transport = createHttpTransport({
      fetch: (input, init) => {
        fetchSignal = init?.signal ?? undefined;
        return globalThis.fetch(input, init);
      },
    });
    const controller = new AbortController();
    const response = await transport.request({
      provider: 'x',
      method: 'POST',
      url: `${BASE}/slow`,
      signal: controller.signal,
    });
    const events = parseSse(response.body);
    expect((await events.next()).value).toEqual({ data: '{"n":0}' });
    controller.abort();
    expect(AbortError.isInstance(await rejectionOf(events.next()))).toBe(true);
    expect(fetchSignal?.aborted).toBe(true);
  });
});
