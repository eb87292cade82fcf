import { describe, expect, it } from 'vitest';
import { AbortError, TimeoutError } from '../../src/errors/index.js';
import { createHttpTransport } from '../../src/transport/http-transport.js';
import { FakeClock } from './fake-clock.js';
import { rejectionOf } from './loopback.js';

const CHUNK = 16_384;

/** Lets every pending promise job and I/O callback run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A fake fetch whose response body counts pulls, can stall, and records cancellation. */
function fakeSource(stallAfter: number) {
  const state = { pulls: 0, cancelled: false, init: undefined as RequestInit | undefined, url: '' };
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    state.url = String(url);
    state.init = init;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          state.pulls++;
          if (state.pulls > stallAfter) return new Promise<void>(() => {});
          controller.enqueue(new Uint8Array(CHUNK).fill(state.pulls));
          return undefined;
        },
        cancel() {
          state.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: 200, headers: { 'content-type': 'audio/pcm' } });
  };
  return { state, fetch: fetch as typeof globalThis.fetch };
}

describe('fetch wire with a fake fetch', () => {
  it('passes method, headers, body, manual redirects and its own signal to fetch', async () => {
    const { state, fetch } = fakeSource(0);
    const transport = createHttpTransport({ fetch });
    const response = await transport.request({
      provider: 'p',
      method: 'POST',
      url: 'http://provider.test/v1/audio/speech',
      headers: { 'content-type': 'application/json' },
      body: '{"input":"hi"}',
    });
    expect(response.status).toBe(200);
    expect(state.url).toBe('http://provider.test/v1/audio/speech');
    expect([state.init?.method, state.init?.body, state.init?.redirect]).toEqual([
      'POST',
      '{"input":"hi"}',
      'manual',
    ]);
    expect(state.init?.headers).toEqual({ 'content-type': 'application/json' });
    expect(state.init?.signal?.aborted).toBe(false);
    await response.cancel();
    expect(state.init?.signal?.aborted).toBe(true);
    await transport.close();
  });

  it('stops reading when its buffer is full, does not blame the provider meanwhile, and resumes as the consumer reads', async () => {
    const { state, fetch } = fakeSource(6);
    const clock = new FakeClock();
    const transport = createHttpTransport({ fetch, clock, maxBufferedBytes: 4 * CHUNK });
    const response = await transport.request({
      provider: 'tts',
      method: 'GET',
      url: 'http://provider.test/audio',
      deadlines: { idleMs: 100 },
    });
    await settle();
    // Four chunks fill the 64 KiB buffer: reading stops.
    expect(state.pulls).toBe(4);
    // The consumer is slow for a long time: not the provider's fault, no idle timeout.
    clock.advance(10_000);
    const body = response.body[Symbol.asyncIterator]();
    expect((await body.next()).value?.[0]).toBe(1);
    await settle();
    expect(state.pulls).toBe(4);
    expect((await body.next()).value?.[0]).toBe(2);
    await settle();
    // Down to half the buffer: reading resumed, refilled it (chunks 5 and 6) and paused again.
    expect(state.pulls).toBe(6);
    for (const expected of [3, 4, 5, 6]) expect((await body.next()).value?.[0]).toBe(expected);
    // Reading resumed once more; the source has nothing left and stalls.
    expect(state.pulls).toBe(7);
    // Now the socket is silent and the consumer waiting: that is the provider's stall.
    const next = body.next();
    clock.advance(100);
    const error = await rejectionOf(next);
    expect(TimeoutError.isInstance(error) && [error.phase, error.partialOutput]).toEqual(['idle', true]);
    await settle();
    expect(state.cancelled).toBe(true);
    await transport.close();
  });

  it('delivers chunks received before a timeout, then the timeout', async () => {
    const { fetch } = fakeSource(2);
    const clock = new FakeClock();
    const transport = createHttpTransport({ fetch, clock });
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: 'http://provider.test/audio',
      deadlines: { idleMs: 100 },
    });
    await settle();
    clock.advance(100);
    const body = response.body[Symbol.asyncIterator]();
    expect((await body.next()).value?.byteLength).toBe(CHUNK);
    expect((await body.next()).value?.byteLength).toBe(CHUNK);
    const error = await rejectionOf(body.next());
    expect(TimeoutError.isInstance(error) && [error.phase, error.partialOutput]).toEqual(['idle', true]);
    await transport.close();
  });

  it('after an abort, buffered chunks are dropped and nothing more is delivered', async () => {
    const { fetch } = fakeSource(2);
    const controller = new AbortController();
    const transport = createHttpTransport({ fetch });
    const response = await transport.request({
      provider: 'p',
      method: 'GET',
      url: 'http://provider.test/audio',
      signal: controller.signal,
    });
    await settle();
    controller.abort();
    const body = response.body[Symbol.asyncIterator]();
    expect(AbortError.isInstance(await rejectionOf(body.next()))).toBe(true);
    expect(AbortError.isInstance(await rejectionOf(body.next()))).toBe(true);
    await transport.close();
  });

  it('maps a TypeError from fetch to a retryable network ProviderError', async () => {
    const transport = createHttpTransport({
      fetch: (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof globalThis.fetch,
    });
    const error = await rejectionOf(
      transport.request({ provider: 'p', method: 'GET', url: 'http://provider.test/' }),
    );
    expect(error).toMatchObject({
      code: 'PROVIDER_ERROR',
      retryable: true,
      status: undefined,
      message: "Network error talking to provider 'p': Failed to fetch",
    });
    await transport.close();
  });
});
