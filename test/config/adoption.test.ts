import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { didYouMean, knownKeysAt } from '../../src/config/did-you-mean.js';
import { loadConfig, parseConfig } from '../../src/config/index.js';
import { configJsonSchema } from '../../src/config/json-schema.js';
import { configErrorOf, rejectedConfigError } from './helpers.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

const chatProvider = (baseUrl: unknown) => ({
  providers: { a: { kind: 'openai-compatible', baseUrl, chat: { models: { m: 'x' } } } },
  routes: { chat: { providers: ['a'] } },
});

describe('baseUrl from the environment', () => {
  it('reads { env } for baseUrl, checks it as a URL and strips trailing slashes', () => {
    const config = parseConfig(chatProvider({ env: 'GPU_URL' }), {
      env: { GPU_URL: 'http://10.0.0.5:8000/v1//' },
    });
    expect(config.providers.a).toMatchObject({ baseUrl: 'http://10.0.0.5:8000/v1' });
  });

  it('reads { env } for the baseUrl of every kind with a default, and for sagemaker endpointUrl', () => {
    const config = parseConfig(
      {
        providers: {
          o: { kind: 'openai', apiKey: 'k', baseUrl: { env: 'U' }, chat: { models: { m: 'x' } } },
          d: { kind: 'deepgram', apiKey: 'k', baseUrl: { env: 'U' }, stt: {} },
          s: {
            kind: 'sagemaker',
            region: 'us-east-1',
            endpointName: 'e',
            endpointUrl: { env: 'U' },
            chat: { models: { m: 'default' } },
          },
        },
        routes: {},
      },
      { env: { U: 'https://proxy.example/x/' } },
    );
    expect([
      (config.providers.o as { baseUrl: string }).baseUrl,
      (config.providers.d as { baseUrl: string }).baseUrl,
      (config.providers.s as { endpointUrl: string }).endpointUrl,
    ]).toEqual(['https://proxy.example/x', 'https://proxy.example/x', 'https://proxy.example/x']);
  });

  it('reports an unset variable, a value that is not an http(s) URL, and one with credentials, never quoting it', () => {
    const error = configErrorOf(() =>
      parseConfig(
        {
          providers: {
            a: { kind: 'openai-compatible', baseUrl: { env: 'UNSET' }, chat: { models: { m: 'x' } } },
            b: { kind: 'openai-compatible', baseUrl: { env: 'FTP' }, chat: { models: { m: 'x' } } },
            c: { kind: 'openai-compatible', baseUrl: { env: 'CREDS' }, chat: { models: { m: 'x' } } },
          },
          routes: {},
        },
        { env: { FTP: 'ftp://files.example/', CREDS: 'https://user:hunter2-secret@h.example/v1' } },
      ),
    );
    expect(error.issues).toEqual([
      { path: ['providers', 'a', 'baseUrl'], message: 'environment variable UNSET is not set' },
      {
        path: ['providers', 'b', 'baseUrl'],
        message: 'environment variable FTP: must be an http:// or https:// URL',
      },
      {
        path: ['providers', 'c', 'baseUrl'],
        message:
          'environment variable CREDS: must not contain a user name or password: put credentials in apiKey or headers',
      },
    ]);
    expect(error.message).not.toContain('hunter2-secret');
  });

  it('rejects a baseUrl that is neither a string nor { env }', () => {
    expect(configErrorOf(() => parseConfig(chatProvider(5))).issues).toEqual([
      {
        path: ['providers', 'a', 'baseUrl'],
        message: 'expected an http:// or https:// URL or { env: "VARIABLE_NAME" }',
      },
    ]);
  });

  it('shows { env } as an alternative, and the default, in the JSON Schema', () => {
    const schema = configJsonSchema() as {
      properties: { providers: { additionalProperties: { oneOf: { properties: { baseUrl: unknown } }[] } } };
    };
    expect(schema.properties.providers.additionalProperties.oneOf[0]!.properties.baseUrl).toMatchObject({
      default: 'https://api.openai.com/v1',
      anyOf: [
        { type: 'string', format: 'uri' },
        { type: 'object', required: ['env'] },
      ],
    });
  });
});

describe('did-you-mean for unknown keys', () => {
  it("suggests baseUrl for openai-node's baseURL, and apiKey for api_key", () => {
    const input = chatProvider('http://127.0.0.1:1/v1') as { providers: { a: Record<string, unknown> } };
    delete input.providers.a.baseUrl;
    input.providers.a.baseURL = 'http://127.0.0.1:1/v1';
    input.providers.a.api_key = 'k';
    expect(configErrorOf(() => parseConfig(input)).issues).toEqual([
      {
        path: ['providers', 'a', 'baseUrl'],
        message: 'required, but missing (an http:// or https:// URL or { env: "VARIABLE_NAME" })',
      },
      { path: ['providers', 'a', 'baseURL'], message: 'unknown key; did you mean "baseUrl"?' },
      { path: ['providers', 'a', 'api_key'], message: 'unknown key; did you mean "apiKey"?' },
    ]);
  });

  it('says only "unknown key" when nothing is close', () => {
    const input = chatProvider('http://127.0.0.1:1/v1') as { providers: { a: Record<string, unknown> } };
    input.providers.a.colour = 'blue';
    expect(configErrorOf(() => parseConfig(input)).issues).toEqual([
      { path: ['providers', 'a', 'colour'], message: 'unknown key' },
    ]);
  });

  it('didYouMean: case and separators first, then one close key within the edit limit, none on a tie', () => {
    expect(didYouMean('BASE_URL', ['baseUrl', 'apiKey'])).toBe('baseUrl');
    expect(didYouMean('modle', ['model', 'models'])).toBe('model');
    expect(didYouMean('voice', ['voices', 'chat'])).toBe('voices');
    expect(didYouMean('ab', ['abc'])).toBeUndefined();
    expect(didYouMean('modelz', ['models', 'model'])).toBeUndefined();
    expect(didYouMean('zzzzzzzz', ['apiKey'])).toBeUndefined();
    expect(didYouMean('tts', ['tts', 'stt', 'chat'])).toBeUndefined();
  });

  it('didYouMean: a key too short for an edit still gets a swap of two neighbours (evn -> env), nothing else', () => {
    expect(didYouMean('evn', ['env', 'value'])).toBe('env');
    expect(didYouMean('nev', ['env'])).toBe('env');
    expect(didYouMean('enb', ['env'])).toBeUndefined();
    expect(didYouMean('nve', ['env'])).toBeUndefined();
    expect(didYouMean('evn', ['env', 'nev'])).toBe('env');
    expect(
      configErrorOf(() =>
        parseConfig({
          ...chatProvider('http://127.0.0.1:9/v1'),
          providers: {
            a: {
              kind: 'openai-compatible',
              baseUrl: 'http://127.0.0.1:9/v1',
              apiKey: { evn: 'KEY' } as never,
              chat: { models: { m: 'x' } },
            },
          },
        }),
      ).issues,
    ).toEqual([
      { path: ['providers', 'a', 'apiKey', 'env'], message: 'required, but missing (a string)' },
      { path: ['providers', 'a', 'apiKey', 'evn'], message: 'unknown key; did you mean "env"?' },
    ]);
  });

  it('knownKeysAt: the keys allowed at a path, across union members', () => {
    const schema = configJsonSchema();
    expect(knownKeysAt(schema, [])).toEqual(['$schema', 'providers', 'routes', 'defaults', 'health']);
    expect(knownKeysAt(schema, ['providers', 'x', 'tts'])).toContain('voices');
    expect(knownKeysAt(schema, ['routes', 'r'])).toContain('firstChunkTimeoutMs');
  });
});

describe('loadConfig: a config function of the environment', () => {
  it("calls a TS config's default export function with loadConfig's env", async () => {
    const config = await loadConfig(`${fixtures}from-env.ts`, {
      env: { FIXTURE_BASE_URL: 'http://127.0.0.1:9/v1', FIXTURE_MODEL_NAME: 'fast' },
    });
    expect(config.providers.local).toMatchObject({
      baseUrl: 'http://127.0.0.1:9/v1',
      chat: { models: { fast: 'voxroute-echo' } },
    });
  });

  it('reports a config function that throws, naming the file', async () => {
    const error = await rejectedConfigError(loadConfig(`${fixtures}throws.mjs`, { env: {} }));
    expect(error.issues).toEqual([{ path: [], message: 'the config function threw: no region configured' }]);
    expect(error.source).toBe(`${fixtures}throws.mjs`);
  });
});
