import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer, MockServerOptions, OpenAiCompatibleMockOptions } from '../../src/testing/index.js';
import {
  createManualDelay,
  createOpenAiCompatibleMock,
  mockSpeechPcm,
  startMockServer,
} from '../../src/testing/index.js';
import { expectSameBytes, postJson, rawPost, sseData, sseJson } from './helpers.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: OpenAiCompatibleMockOptions): Promise<MockServer> {
  const serverOptions: MockServerOptions = { provider: createOpenAiCompatibleMock(options) };
  server = await startMockServer(serverOptions);
  return server;
}

const chatBody = {
  model: 'small',
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'hi' }],
};
const speechBody = { model: 'tts-1', input: 'Your table is booked.', voice: 'alloy', response_format: 'pcm' };

describe('startMockServer: script faults over a real socket', () => {
  it('answers N calls with the status and Retry-After, then succeeds', async () => {
    const { url, requests } = await serve({ script: { failTimes: 2, failStatus: 429, retryAfter: '1' } });
    const results: Array<[number, string | null]> = [];
    for (let i = 0; i < 3; i++) {
      const response = await postJson(`${url}/v1/chat/completions`, chatBody);
      results.push([response.status, response.headers.get('retry-after')]);
      const text = await response.text();
      if (i === 0) {
        expect(JSON.parse(text)).toEqual({
          error: {
            message: 'mock failure 1 of 2',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        });
      }
      if (i === 2) expect(sseData(text).at(-1)).toBe('[DONE]');
    }
    expect(results).toEqual([
      [429, '1'],
      [429, '1'],
      [200, null],
    ]);
    expect(requests.map((r) => [r.call, r.status, r.outcome])).toEqual([
      [1, 429, 'completed'],
      [2, 429, 'completed'],
      [3, 200, 'completed'],
    ]);
  });

  it('resets the connection after K chunks: the client gets exactly K chunks, then a socket error', async () => {
    const { url, requests } = await serve({ script: { chunkBytes: 1000, resetAfterChunks: 3 } });
    const result = await rawPost(`${url}/v1/audio/speech`, speechBody);
    expect(result.status).toBe(200);
    expect(result.pieces.map((p) => p.byteLength)).toEqual([1000, 1000, 1000]);
    expectSameBytes(Buffer.concat(result.pieces), mockSpeechPcm('Your table is booked.').subarray(0, 3000));
    expect(result.error?.code).toBe('ECONNRESET');
    await requests[0]!.ended;
    expect(requests[0]).toMatchObject({ outcome: 'reset', chunksSent: 3, aborted: false });

    const viaFetch = await postJson(`${url}/v1/audio/speech`, speechBody);
    const error = await viaFetch.arrayBuffer().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('terminated');
  });

  it('resets before the headers with resetAfterChunks 0: fetch rejects, nothing was sent', async () => {
    const { url, requests } = await serve({ script: { resetAfterChunks: 0 } });
    const error = await postJson(`${url}/v1/chat/completions`, chatBody).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNRESET');
    expect(requests[0]).toMatchObject({ outcome: 'reset', chunksSent: 0 });
    expect(requests[0]!.status).toBeUndefined();
  });

  it('stalls after K chunks until the client goes away, and records the disconnect', async () => {
    const { url, requests } = await serve({ script: { chunkBytes: 500, stallAfterChunks: 2 } });
    const controller = new AbortController();
    const response = await postJson(`${url}/v1/audio/speech`, speechBody, { signal: controller.signal });
    const reader = response.body!.getReader();
    let received = 0;
    while (received < 1000) {
      const { value } = await reader.read();
      received += value!.byteLength;
    }
    expect(received).toBe(1000);
    const pending = reader.read();
    expect(requests[0]!.outcome).toBe('pending');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await requests[0]!.ended).toBe('aborted');
    expect(requests[0]).toMatchObject({ aborted: true, chunksSent: 2, outcome: 'aborted' });
  });

  it('sends a malformed frame (invalid JSON) after K chunks, then carries on', async () => {
    const { url } = await serve({ chat: 'One two.', script: { malformedAfterChunks: 2 } });
    const data = sseData(await (await postJson(`${url}/v1/chat/completions`, chatBody)).text());
    expect(data).toHaveLength(7);
    expect(data[2]).toBe('{"malformed": tru');
    expect(() => JSON.parse(data[2]!)).toThrow(SyntaxError);
    expect(JSON.parse(data[1]!)).toMatchObject({ choices: [{ delta: { content: 'One ' } }] });
    expect(JSON.parse(data[3]!)).toMatchObject({ choices: [{ delta: { content: 'two.' } }] });
    expect(data[6]).toBe('[DONE]');
  });

  it('sends an error event inside the 200 stream after K chunks and ends (OpenAI); vLLM adds [DONE]', async () => {
    const { url, requests } = await serve({
      chat: 'Partial answer here.',
      script: {
        errorEventAfterChunks: 2,
        errorEvent: { type: 'overloaded_error', code: 'overloaded', message: 'busy' },
      },
    });
    const response = await postJson(`${url}/v1/chat/completions`, chatBody);
    expect(response.status).toBe(200);
    const events = sseJson(await response.text());
    expect(events).toHaveLength(3);
    expect(events[1]).toMatchObject({ choices: [{ delta: { content: 'Partial ' } }] });
    expect(events[2]).toEqual({
      error: { message: 'busy', type: 'overloaded_error', param: null, code: 'overloaded' },
    });
    expect(requests[0]).toMatchObject({ chunksSent: 3, outcome: 'completed' });
    await server!.close();

    const vllm = await serve({ dialect: 'vllm', script: { errorEventAfterChunks: 1 } });
    const vllmEvents = sseJson(await (await postJson(`${vllm.url}/v1/chat/completions`, chatBody)).text());
    expect(vllmEvents.slice(1)).toEqual([
      { error: { message: 'mock error event', type: 'server_error', param: null, code: 500 } },
      '[DONE]',
    ]);
  });

  it('endWithoutDone truncates: no finish chunk, no usage chunk, no [DONE], and a clean end', async () => {
    const { url, requests } = await serve({ chat: 'One two.', script: { endWithoutDone: true } });
    const events = sseJson(await (await postJson(`${url}/v1/chat/completions`, chatBody)).text()) as Array<{
      choices: Array<{ finish_reason: string | null }>;
    }>;
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.choices[0]!.finish_reason === null)).toBe(true);
    expect(requests[0]).toMatchObject({ outcome: 'completed', chunksSent: 3 });
  });

  it('delivers odd chunkBytes as exactly those sizes to a raw node:http client', async () => {
    const { url } = await serve({ script: { chunkBytes: 4063 } });
    const result = await rawPost(`${url}/v1/audio/speech`, speechBody);
    const total = mockSpeechPcm('Your table is booked.').byteLength;
    expect(result.error).toBeUndefined();
    expect(result.headers['content-type']).toBe('application/octet-stream');
    expect(result.pieces.map((p) => p.byteLength)).toEqual([
      ...Array<number>(Math.floor(total / 4063)).fill(4063),
      total % 4063,
    ]);
    expectSameBytes(Buffer.concat(result.pieces), mockSpeechPcm('Your table is booked.'));
  });

  it('an injected delay holds the first chunk on the real server: headers first, body after release', async () => {
    const time = createManualDelay();
    const { url, requests } = await serve({
      delay: time.delay,
      script: { firstChunkDelayMs: 250, chunkBytes: 100_000 },
    });
    const response = await postJson(`${url}/v1/audio/speech`, speechBody);
    expect(response.status).toBe(200);
    const reading = response.arrayBuffer();
    expect(await time.release()).toBe(250);
    expectSameBytes(new Uint8Array(await reading), mockSpeechPcm('Your table is booked.'));
    expect(requests[0]).toMatchObject({ outcome: 'completed', chunksSent: 1 });
  });

  it('a client that aborts during headersDelayMs is recorded as aborted', async () => {
    const time = createManualDelay();
    const { url, requests } = await serve({ delay: time.delay, script: { headersDelayMs: 5000 } });
    const controller = new AbortController();
    const responding = postJson(`${url}/v1/chat/completions`, chatBody, { signal: controller.signal });
    expect(await time.whenWaiting()).toBe(5000);
    controller.abort();
    await expect(responding).rejects.toMatchObject({ name: 'AbortError' });
    expect(await requests[0]!.ended).toBe('aborted');
    expect(requests[0]).toMatchObject({ aborted: true, chunksSent: 0 });
  });

  it('close() ends stalled streams as aborted', async () => {
    const { url, requests } = await serve({ script: { stallAfterChunks: 0 } });
    const response = await postJson(`${url}/v1/chat/completions`, chatBody);
    expect(response.status).toBe(200);
    const reading = response.text().catch((e: unknown) => e);
    await server!.close();
    server = undefined;
    expect(await requests[0]!.ended).toBe('aborted');
    expect(await reading).toBeInstanceOf(TypeError);
  });
});

describe('startMockServer checks its options before anything starts', () => {
  const mock = createOpenAiCompatibleMock();
  const rejects = (options: unknown) => startMockServer(options as MockServerOptions);

  it('the mock passed as the options themselves is named, not a read of undefined', async () => {
    // It rejected with "Cannot read properties of undefined (reading 'upgrade')".
    await expect(rejects(mock)).rejects.toThrow(
      new TypeError(
        'startMockServer: options: got a mock provider itself: pass it as the provider option, startMockServer({ provider: mock })',
      ),
    );
  });

  it('a missing provider, an unknown option, a bad port, host or tls: a TypeError naming it', async () => {
    await expect(rejects({})).rejects.toThrow(
      new TypeError(
        'startMockServer: options.provider: expected a mock provider (e.g. createOpenAiCompatibleMock()), got undefined',
      ),
    );
    await expect(rejects({ providers: mock })).rejects.toThrow(
      new TypeError(
        "startMockServer: options.providers: unknown option (did you mean 'provider'?); the options are provider, port, host, tls",
      ),
    );
    await expect(rejects({ provider: mock, port: 70000 })).rejects.toThrow(
      new TypeError('startMockServer: options.port: expected a whole number from 0 to 65535, got 70000'),
    );
    await expect(rejects({ provider: mock, port: '0' })).rejects.toThrow(TypeError);
    await expect(rejects({ provider: mock, host: 1 })).rejects.toThrow(TypeError);
    await expect(rejects({ provider: mock, tls: 'yes' })).rejects.toThrow(TypeError);
    await expect(rejects(undefined)).rejects.toThrow(TypeError);
    expect(mock.requests).toEqual([]);
  });
});
