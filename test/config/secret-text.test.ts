/**
 * A secret with a line break (a key file read with its trailing newline, a CRLF .env file) or
 * another character an HTTP header cannot carry is a ConfigError at the secret's path when the
 * config is loaded, never quoting the value, before any provider is contacted; not a failure of
 * every call charged to the provider. docs/decisions.md "A secret with a line break is a
 * config error, not trimmed".
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createRouter, type RouterConfig } from '../../src/index.js';
import { httpServer } from '../cases/wire/servers.js';
import { configErrorOf, type Loose } from './helpers.js';

const KEY = 'sk-test-123';
const LINE_BREAK =
  'contains a line break or control character (check the file or environment value for a trailing newline)';
const ENV = {
  LF: `${KEY}\n`,
  CRLF: `${KEY}\r\n`,
  TAB: `${KEY}\t`,
  NUL: `${KEY}\u0000x`,
  ZWSP: `${KEY}\u200b`,
  OK: KEY,
};

function gpu(extra: Record<string, Loose>, url = 'http://127.0.0.1:9'): Record<string, Loose> {
  return {
    providers: {
      gpu: { kind: 'openai-compatible', baseUrl: `${url}/v1`, chat: { models: { fast: 'm' } }, ...extra },
    },
    routes: { chat: { providers: ['gpu'] } },
  };
}

function issuesOf(input: unknown) {
  const error = configErrorOf(() => parseConfig(input, { env: ENV }));
  expect(error.message).not.toContain(KEY);
  expect(JSON.stringify(error.issues)).not.toContain(KEY);
  return error.issues;
}

describe('secret text that cannot go in an HTTP header', () => {
  it.each(['LF', 'CRLF', 'TAB', 'NUL'])(
    'apiKey { env } ending in %s: ConfigError at providers.gpu.apiKey',
    (name) => {
      expect(issuesOf(gpu({ apiKey: { env: name } }))).toEqual([
        { path: ['providers', 'gpu', 'apiKey'], message: `environment variable ${name}: ${LINE_BREAK}` },
      ]);
    },
  );

  it('a header value { env } with a trailing newline: ConfigError at providers.gpu.headers.X-Api-Key', () => {
    expect(issuesOf(gpu({ headers: { 'X-Api-Key': { env: 'LF' } } }))).toEqual([
      {
        path: ['providers', 'gpu', 'headers', 'X-Api-Key'],
        message: `environment variable LF: ${LINE_BREAK}`,
      },
    ]);
  });

  it('literal apiKey and header values are checked the same way', () => {
    expect(issuesOf(gpu({ apiKey: `${KEY}\n`, headers: { 'X-Org': `${KEY}\r\n` } }))).toEqual([
      { path: ['providers', 'gpu', 'apiKey'], message: LINE_BREAK },
      { path: ['providers', 'gpu', 'headers', 'X-Org'], message: LINE_BREAK },
    ]);
  });

  it('a character past Latin-1 (a zero-width space) is refused too, with its own reason', () => {
    expect(issuesOf(gpu({ apiKey: { env: 'ZWSP' } }))).toEqual([
      {
        path: ['providers', 'gpu', 'apiKey'],
        message:
          'environment variable ZWSP: contains a character an HTTP header cannot carry (past Latin-1, e.g. a typographic quote or a zero-width space)',
      },
    ]);
  });

  it('Anthropic, Deepgram, ElevenLabs, Cartesia keys and SageMaker credentials', () => {
    const issues = issuesOf({
      providers: {
        claude: {
          kind: 'anthropic',
          apiKey: { env: 'CRLF' },
          chat: { models: { fast: 'c' } },
        },
        dg: { kind: 'deepgram', apiKey: { env: 'LF' }, stt: {} },
        el: { kind: 'elevenlabs', apiKey: { env: 'LF' }, tts: { voices: { agent: 'v' } } },
        ct: { kind: 'cartesia', apiKey: { env: 'LF' }, tts: { voices: { agent: 'v' } } },
        sm: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'e',
          credentials: { accessKeyId: { env: 'OK' }, secretAccessKey: { env: 'LF' } },
          chat: { models: { fast: 'default' } },
        },
      },
      routes: {},
    });
    expect(issues).toEqual([
      { path: ['providers', 'claude', 'apiKey'], message: `environment variable CRLF: ${LINE_BREAK}` },
      { path: ['providers', 'dg', 'apiKey'], message: `environment variable LF: ${LINE_BREAK}` },
      { path: ['providers', 'el', 'apiKey'], message: `environment variable LF: ${LINE_BREAK}` },
      { path: ['providers', 'ct', 'apiKey'], message: `environment variable LF: ${LINE_BREAK}` },
      {
        path: ['providers', 'sm', 'credentials', 'secretAccessKey'],
        message: `environment variable LF: ${LINE_BREAK}`,
      },
    ]);
  });

  it('Anthropic anthropicVersion, sent as a header, is checked as a header value', () => {
    const config = gpu({});
    config.providers.claude = {
      kind: 'anthropic',
      apiKey: 'k',
      anthropicVersion: '2023-06-01\n',
      chat: { models: { fast: 'c' } },
    };
    expect(issuesOf(config)).toEqual([
      { path: ['providers', 'claude', 'anthropicVersion'], message: LINE_BREAK },
    ]);
  });

  it('the value is used exactly as given when it can be sent (not trimmed)', () => {
    const config = parseConfig(gpu({ apiKey: { env: 'OK' }, headers: { 'X-Org': ' spaced ' } }), {
      env: ENV,
    });
    expect(config.providers.gpu).toMatchObject({ apiKey: KEY, headers: { 'X-Org': ' spaced ' } });
  });

  it('over loopback: createRouter throws the ConfigError and the server gets no request', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(500).end();
    });
    for (const extra of [{ apiKey: { env: 'LF' } }, { headers: { 'X-Api-Key': { env: 'CRLF' } } }]) {
      const error = configErrorOf(() => createRouter(gpu(extra, server.url) as RouterConfig, { env: ENV }));
      expect(error.issues).toHaveLength(1);
      expect(error.message).not.toContain(KEY);
    }
    expect(server.hits).toBe(0);
  });
});
