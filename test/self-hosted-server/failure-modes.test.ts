import { afterEach, describe, expect, it } from 'vitest';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';

let server: SelfHostedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CHAT = JSON.stringify({
  model: 'voxroute-echo',
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
});

function postChat(s: SelfHostedServer, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${s.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: CHAT,
  });
}

describe('failure modes', () => {
  it('503: every route answers 503 with Retry-After: 1 and an OpenAI error body', async () => {
    server = await startSelfHostedServer({ port: 0, failMode: '503' });
    const expectedBody = {
      error: {
        message: 'The server is temporarily unavailable (scripted failure mode 503). Retry later.',
        type: 'server_error',
        param: null,
        code: 'service_unavailable',
      },
    };
    for (const response of [
      await postChat(server),
      await fetch(`${server.url}/health`),
      await fetch(`${server.baseUrl}/audio/speech`, { method: 'POST', body: '{"input":"hi"}' }),
    ]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(expectedBody);
    }
  });

  it('stall: sends 200 headers, then no byte until the server closes the connection', async () => {
    server = await startSelfHostedServer({ port: 0, failMode: 'stall' });
    const response = await postChat(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const firstRead = reader.read().then(
      () => 'got data',
      (e: unknown) => e,
    );
    await server.close();
    server = undefined;
    // The only way the read ends is the connection being dropped: nothing was ever sent.
    expect(await firstRead).toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it('reset: resets the connection before any response byte', async () => {
    server = await startSelfHostedServer({ port: 0, failMode: 'reset' });
    const error = await postChat(server).then(
      () => undefined,
      (e: unknown) => e as TypeError & { cause?: { code?: string } },
    );
    expect(error?.name).toBe('TypeError');
    expect(error?.cause?.code).toBe('ECONNRESET');
  });

  it('setFailMode switches the mode for the requests that follow', async () => {
    server = await startSelfHostedServer({ port: 0, failMode: '503', chatWordGapMs: 0 });
    expect((await postChat(server)).status).toBe(503);
    server.setFailMode('none');
    expect(server.failMode).toBe('none');
    const response = await postChat(server);
    expect(response.status).toBe(200);
    expect((await response.text()).endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('bearer auth (--api-key)', () => {
  const KEY = 'sk-test-5d1c0ffee';

  it('answers 401 invalid_api_key without or with a wrong key, and never echoes a key', async () => {
    server = await startSelfHostedServer({ port: 0, apiKey: KEY, chatWordGapMs: 0 });
    const missing = await postChat(server);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      error: {
        message: 'Missing bearer token: send Authorization: Bearer <key>.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const wrong = await postChat(server, { authorization: 'Bearer sk-wrong-key' });
    expect(wrong.status).toBe(401);
    const wrongText = await wrong.text();
    expect(JSON.parse(wrongText).error.message).toBe('Incorrect API key provided.');
    expect(wrongText.includes('sk-wrong-key')).toBe(false);
    expect(wrongText.includes(KEY)).toBe(false);
    const models = await fetch(`${server.baseUrl}/models`);
    expect(models.status).toBe(401);
  });

  it('serves with the right key, and /health needs none', async () => {
    server = await startSelfHostedServer({ port: 0, apiKey: KEY, chatWordGapMs: 0 });
    const ok = await postChat(server, { authorization: `Bearer ${KEY}` });
    expect(ok.status).toBe(200);
    expect((await ok.text()).endsWith('data: [DONE]\n\n')).toBe(true);
    const models = await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    expect((await models.json()).data.map((m: { id: string }) => m.id)).toEqual([
      'voxroute-echo',
      'espeak-ng',
      'pocketsphinx',
    ]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('routing', () => {
  it('answers 404 unknown_url and 405 with Allow for a known path and another method', async () => {
    server = await startSelfHostedServer({ port: 0 });
    const unknown = await fetch(`${server.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toEqual({
      message: 'Unknown request URL: POST /v1/embeddings.',
      type: 'invalid_request_error',
      param: null,
      code: 'unknown_url',
    });
    const wrongMethod = await fetch(`${server.baseUrl}/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await wrongMethod.json()).error.code).toBe('method_not_allowed');
  });
});
