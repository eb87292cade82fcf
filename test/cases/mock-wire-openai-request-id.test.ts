/**
 * Wire gap of the OpenAI-compatible mock (dialect `openai`): OpenAI answers every request with
 * an `x-request-id` header, which the official client exposes as `_request_id` on every object,
 * `request_id` of `.withResponse()`, and `requestID` on every `APIError` (ONODE
 * `core/api-promise`, `core/error`; its README "Request IDs"). The mock sent none, so an app
 * that logs the request id of a failed call logged `undefined`/`null` in CI. Every answer of
 * the `openai` dialect now carries `x-request-id: req_mock_<n>`, n counting the mock's requests
 * from 1 (reset by `reset()`); the self-hosted dialects send none, as vLLM, Kokoro and
 * speaches do by default.
 */

import { setupServer } from 'msw/node';
import OpenAI, { type APIError, AuthenticationError, RateLimitError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAiCompatibleMock,
  type MockServer,
  type OpenAiCompatibleMockOptions,
  openAiCompatibleHandlers,
  startMockServer,
} from '../../src/testing/index.js';
import { collect } from '../helpers/index.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: OpenAiCompatibleMockOptions = {}) {
  const mock = createOpenAiCompatibleMock({ apiKey: 'test-key', ...options });
  server = await startMockServer({ provider: mock });
  const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  return { mock, openai, url: server.url };
}

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('x-request-id on the OpenAI mock', () => {
  it('successes: _request_id of a completion, request_id of a stream and of speech, in request order', async () => {
    const { openai } = await serve();
    const completion = await openai.chat.completions.create(ask);
    expect(completion._request_id).toBe('req_mock_1');

    const { data: stream, request_id } = await openai.chat.completions
      .create({ ...ask, stream: true })
      .withResponse();
    expect(request_id).toBe('req_mock_2');
    expect((await collect(stream)).length).toBe(7);

    const speech = await openai.audio.speech
      .create({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Hi', response_format: 'pcm' })
      .withResponse();
    expect(speech.request_id).toBe('req_mock_3');
    await speech.data.body?.cancel();
  });

  it('errors: requestID of a 401, of a scripted 429 and of a 400 plan refusal; the 404 of an unknown path', async () => {
    const { openai, url } = await serve({ script: { speech: { failTimes: 1, failStatus: 429 } } });
    const wrongKey = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'wrong', maxRetries: 0 });
    const auth = await wrongKey.chat.completions.create(ask).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(AuthenticationError);
    expect((auth as APIError).requestID).toBe('req_mock_1');

    const limited = await openai.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'pcm' })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as APIError).requestID).toBe('req_mock_2');

    const mp3 = await openai.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: 'Hi' })
      .catch((e: unknown) => e);
    expect([(mp3 as APIError).status, (mp3 as APIError).requestID]).toEqual([400, 'req_mock_3']);

    const missing = await fetch(`${url}/v1/nothing`, { headers: { authorization: 'Bearer test-key' } });
    expect([missing.status, missing.headers.get('x-request-id')]).toEqual([404, 'req_mock_4']);
    await missing.text();
  });

  it('GET /models carries one too; reset() numbers from 1 again', async () => {
    const { mock, url } = await serve();
    const first = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer test-key' } });
    expect(first.headers.get('x-request-id')).toBe('req_mock_1');
    await first.text();
    mock.reset();
    const again = await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer test-key' } });
    expect(again.headers.get('x-request-id')).toBe('req_mock_1');
    await again.text();
  });

  it.each(['vllm', 'kokoro', 'speaches'] as const)('the %s dialect sends none', async (dialect) => {
    const { url } = await serve({ dialect });
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
      body: JSON.stringify(ask),
    });
    expect([response.status, response.headers.get('x-request-id')]).toEqual([200, null]);
    await response.text();
  });

  it('through msw (openAiCompatibleHandlers) the official client reads it too', async () => {
    const msw = setupServer(
      ...openAiCompatibleHandlers({ baseUrl: 'https://api.openai.test/v1', apiKey: 'k' }),
    );
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const openai = new OpenAI({ baseURL: 'https://api.openai.test/v1', apiKey: 'k', maxRetries: 0 });
      expect((await openai.chat.completions.create(ask))._request_id).toBe('req_mock_1');
    } finally {
      msw.close();
    }
  });
});
