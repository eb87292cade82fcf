/**
 * A provider answering HTTP 400 because it does not know the model or voice it was sent: the id
 * comes from the router config's mapping for that provider, so the provider is misconfigured
 * for it, not the caller's request bad. The call falls back to the next provider and the
 * failure is charged to the first (`ProviderError.unknownModel`; an ordinary failure, not
 * `misconfigured`). A 400 that does not name the model or voice still ends the call at once and
 * charges no provider. Covered: OpenAI-compatible chat and speech (`error.code`
 * `model_not_found` / `invalid_model`, or vLLM's "does not exist" message) and ElevenLabs
 * (`detail.status` `voice_not_found` / `model_not_found`). Servers speak the wire on their own
 * (node:http on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProviderError, type RouterConfig } from '../../src/index.js';
import { call, expectChargedToA, health, routerOverBackup, servedByBackup } from './wire/backup.js';
import { httpServer, readBody } from './wire/servers.js';

type ProviderConfig = RouterConfig['providers'][string];

/** A server answering every request with `status` and the JSON `body`; records each request's JSON body. */
async function refusing(status: number, body: unknown) {
  const bodies: Array<Record<string, unknown>> = [];
  const wire = await httpServer(async (req, res) => {
    bodies.push(JSON.parse((await readBody(req)).toString()) as Record<string, unknown>);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { wire, bodies };
}

/** A router over `a` then `b` (priority) for each of `capabilities`. */
const twoProviders = (a: ProviderConfig, capabilities: Array<'chat' | 'tts'> = ['chat', 'tts']) =>
  routerOverBackup(a, capabilities);

/** OpenAI's error body: an `invalid_request_error` with `message`, `param` and `code`. */
const openAiError = (message: string, param: string | null, code: string) => ({
  error: { message, type: 'invalid_request_error', param, code },
});

const openAi = (url: string): ProviderConfig => ({
  kind: 'openai-compatible',
  baseUrl: `${url}/v1`,
  chat: { models: { fast: 'llama-typo' } },
  tts: { model: 'kokoro-typo', voices: { agent: 'af_heart' }, responseFormat: 'pcm' },
});

describe('HTTP 400 naming an unknown model or voice falls back and is charged to that provider', () => {
  it('OpenAI-compatible chat, 400 code "model_not_found": served by the backup, unknownModel, a charged', async () => {
    const a = await refusing(
      400,
      openAiError(
        'The model `llama-typo` does not exist or you do not have access to it.',
        'model',
        'model_not_found',
      ),
    );
    const { r, b, breakers } = await twoProviders(openAi(a.wire.url));
    const error = await servedByBackup(r, 'chat');
    expect([
      error.status,
      error.providerCode,
      error.unknownModel,
      error.retryable,
      error.isAuthError,
    ]).toEqual([400, 'model_not_found', true, false, false]);
    expect(a.bodies.map((x) => x.model)).toEqual(['llama-typo']);
    expect(b.hits).toBe(1);
    expectChargedToA(r, breakers, 'chat');
  });

  it('OpenAI-compatible chat, 400 code "invalid_model": served by the backup, unknownModel', async () => {
    const a = await refusing(400, openAiError('Invalid model: llama-typo', null, 'invalid_model'));
    const { r, breakers } = await twoProviders(openAi(a.wire.url));
    const error = await servedByBackup(r, 'chat');
    expect([error.status, error.providerCode, error.unknownModel]).toEqual([400, 'invalid_model', true]);
    expectChargedToA(r, breakers, 'chat');
  });

  it('vLLM chat, 400 with only a message saying the model does not exist: served by the backup, unknownModel', async () => {
    const a = await refusing(400, {
      object: 'error',
      message: 'The model `llama-typo` does not exist.',
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    const { r, breakers } = await twoProviders(openAi(a.wire.url));
    const error = await servedByBackup(r, 'chat');
    expect([error.status, error.providerType, error.unknownModel]).toEqual([400, 'BadRequestError', true]);
    expectChargedToA(r, breakers, 'chat');
  });

  it('OpenAI-compatible speech, 400 code "model_not_found": served by the backup, unknownModel, a charged', async () => {
    const a = await refusing(
      400,
      openAiError('The model `kokoro-typo` does not exist.', 'model', 'model_not_found'),
    );
    const { r, b, breakers } = await twoProviders(openAi(a.wire.url));
    const error = await servedByBackup(r, 'tts');
    expect([error.status, error.unknownModel, error.retryable, error.isAuthError]).toEqual([
      400,
      true,
      false,
      false,
    ]);
    expect(a.bodies.map((x) => [x.model, x.voice])).toEqual([['kokoro-typo', 'af_heart']]);
    expect(b.hits).toBe(1);
    expectChargedToA(r, breakers, 'tts');
  });

  for (const status of ['voice_not_found', 'model_not_found'] as const) {
    it(`ElevenLabs, 400 {"detail":{"status":"${status}"}}: served by the backup, unknownModel, a charged`, async () => {
      const a = await refusing(400, {
        detail: { status, message: `A ${status.split('_')[0]} with the id you sent was not found.` },
      });
      const { r, b, breakers } = await twoProviders(
        {
          kind: 'elevenlabs',
          baseUrl: a.wire.url,
          apiKey: ['case', 'eleven', 'key'].join('-'),
          tts: { voices: { agent: 'el-voice-typo' } },
        },
        ['tts'],
      );
      const error = await servedByBackup(r, 'tts');
      expect([
        error.status,
        error.providerCode,
        error.unknownModel,
        error.retryable,
        error.isAuthError,
      ]).toEqual([400, status, true, false, false]);
      expect(a.wire.hits).toBe(1);
      expect(b.hits).toBe(1);
      expectChargedToA(r, breakers, 'tts');
    });
  }

  it('a 400 that names no unknown model (a bad parameter) still ends the call at once and charges no provider', async () => {
    const a = await refusing(
      400,
      openAiError("Invalid value for 'temperature': must be at most 2.", 'temperature', 'invalid_value'),
    );
    const { r, b, breakers } = await twoProviders(openAi(a.wire.url));
    const { error } = await call(r, 'chat');
    expect(error).toBeInstanceOf(ProviderError);
    const e = error as ProviderError;
    expect([e.status, e.providerCode, e.unknownModel, e.retryable]).toEqual([
      400,
      'invalid_value',
      false,
      false,
    ]);
    expect([a.wire.hits, b.hits]).toEqual([1, 0]);
    expect(breakers).toEqual([]);
    expect(health(r, 'a', 'chat').errors ?? 0).toBe(0);
  });
});
