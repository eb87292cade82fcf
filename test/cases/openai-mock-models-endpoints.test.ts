/**
 * The OpenAI-compatible mock serves the read endpoints the official `openai` client calls about
 * models: `GET /models` (`models.list()`) and `GET /models/{id}` (`models.retrieve(id)`, with
 * the id percent-encoded, `/` as `%2F`, as vLLM model ids have slashes). It lists the models it
 * is configured with (`models`; startMockProviders fills them in from the config), in OpenAI's
 * shape `{ object: 'list', data: [{ id, object: 'model', created, owned_by }] }`, followed by
 * DEFAULT_MOCK_MODELS (the ids the official clients' examples use); an unknown id is a 404 in the dialect's error shape. Before, both were a 404 ("No mock endpoint") and a POST
 * only route, so CI code that checks the served models could not run against the mocks. Over a
 * real loopback socket (startMockServer) and through msw.
 */

import { setupServer } from 'msw/node';
import OpenAI, { AuthenticationError, NotFoundError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  DEFAULT_MOCK_MODELS,
  type MockServer,
  openAiCompatibleHandlers,
  startMockProviders,
  startMockServer,
} from '../../src/testing/index.js';

const MODELS = ['meta-llama/Llama-3.1-8B-Instruct', 'kokoro', 'whisper-large-v3'];
const entries = (ids: readonly string[]) =>
  ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'voxroute-mock' }));
/** What GET /models lists for configured `ids`: them, then the defaults. */
const listed = (ids: readonly string[]) => entries([...ids, ...DEFAULT_MOCK_MODELS]);

let close: () => Promise<void> = async () => {};
afterEach(async () => {
  await close();
  close = async () => {};
});

async function serve(options: Parameters<typeof createOpenAiCompatibleMock>[0]) {
  const mock = createOpenAiCompatibleMock(options);
  const server: MockServer = await startMockServer({ provider: mock });
  close = server.close;
  return { mock, baseURL: `${server.url}/v1` };
}

async function listAll(openai: OpenAI): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const model of openai.models.list()) out.push(model);
  return out;
}

describe('GET /models and /models/{id} with the official openai client', () => {
  it('lists the configured models and retrieves each, slashes and all; calls counted', async () => {
    const { mock, baseURL } = await serve({ apiKey: 'test-key', models: MODELS });
    const openai = new OpenAI({ baseURL, apiKey: 'test-key', maxRetries: 0 });
    expect(await listAll(openai)).toEqual(listed(MODELS));
    expect(await openai.models.retrieve('meta-llama/Llama-3.1-8B-Instruct')).toEqual(listed(MODELS)[0]);
    expect(await openai.models.retrieve('kokoro')).toEqual(listed(MODELS)[1]);
    expect(mock.calls('models')).toBe(3);
    expect(mock.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/v1/models'],
      ['GET', '/v1/models/meta-llama%2FLlama-3.1-8B-Instruct'],
      ['GET', '/v1/models/kokoro'],
    ]);
  });

  it('an unknown id is a 404 model_not_found; a wrong key a 401; no models configured lists the defaults only', async () => {
    const { baseURL } = await serve({ apiKey: 'test-key', models: MODELS });
    const openai = new OpenAI({ baseURL, apiKey: 'test-key', maxRetries: 0 });
    const missing = await openai.models.retrieve('gpt-5').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).error).toEqual({
      message: "The model 'gpt-5' does not exist",
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    });
    const wrongKey = new OpenAI({ baseURL, apiKey: 'other', maxRetries: 0 });
    await expect(listAll(wrongKey)).rejects.toBeInstanceOf(AuthenticationError);
    await close();

    const empty = await serve({});
    expect(await listAll(new OpenAI({ baseURL: empty.baseURL, apiKey: 'x', maxRetries: 0 }))).toEqual(
      entries(DEFAULT_MOCK_MODELS),
    );
  });

  it('POST /models is a 405, as a GET on a POST endpoint', async () => {
    const { baseURL } = await serve({ models: MODELS });
    const post = await fetch(`${baseURL}/models`, { method: 'POST', body: '{}' });
    const get = await fetch(`${baseURL}/chat/completions`);
    expect([post.status, get.status]).toEqual([405, 405]);
    await Promise.all([post.text(), get.text()]);
  });

  it('startMockProviders lists the provider ids of the config (chat models, tts and stt models)', async () => {
    const config: RouterConfig = {
      providers: {
        gpu: {
          kind: 'openai-compatible',
          baseUrl: 'http://10.0.0.5:8000/v1',
          chat: { models: { fast: 'meta-llama/Llama-3.1-8B-Instruct', smart: 'Qwen/Qwen2.5-72B' } },
          tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
          stt: { model: 'whisper-large-v3' },
        },
      },
      routes: { chat: { providers: ['gpu'] } },
    };
    const mocks = await startMockProviders(config);
    close = mocks.close;
    const gpu = mocks.config.providers.gpu as { baseUrl: string; apiKey?: string };
    // A provider without apiKey gets none, and its mock checks none; the client needs some key.
    expect(gpu.apiKey).toBe(undefined);
    const openai = new OpenAI({ baseURL: gpu.baseUrl, apiKey: 'any', maxRetries: 0 });
    expect(await listAll(openai)).toEqual(
      listed(['meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen2.5-72B', 'kokoro', 'whisper-large-v3']),
    );
  });

  it('through msw (openAiCompatibleHandlers): the same list and retrieve', async () => {
    const server = setupServer(
      ...openAiCompatibleHandlers({ baseUrl: 'https://llm.test/v1', apiKey: 'k', models: MODELS }),
    );
    server.listen({ onUnhandledRequest: 'error' });
    close = async () => server.close();
    const openai = new OpenAI({ baseURL: 'https://llm.test/v1', apiKey: 'k', maxRetries: 0 });
    expect(await listAll(openai)).toEqual(listed(MODELS));
    expect(await openai.models.retrieve('meta-llama/Llama-3.1-8B-Instruct')).toEqual(listed(MODELS)[0]);
  });
});
