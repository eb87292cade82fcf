import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors/index.js';
import { createAdapter } from '../../../src/providers/create-adapter.js';

/** The builders, as the router loads them (one dynamic import, in the background). */
const loadAdapters = () => import('../../../src/providers/adapters.js');

const routes = { chat: { providers: ['claude'] } };

function issuesOf(provider: Record<string, unknown>, env: Record<string, string> = {}) {
  try {
    parseConfig({ providers: { claude: provider }, routes }, { env });
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as ConfigError).issues.map((i) => [i.path.join('.'), i.message]);
  }
  throw new Error('expected a ConfigError');
}

describe('config kind anthropic', () => {
  it('applies the defaults: baseUrl without /v1, x-api-key, version 2023-06-01, maxTokens 1024, no headers', () => {
    const config = parseConfig(
      {
        providers: {
          claude: {
            kind: 'anthropic',
            apiKey: { env: 'ANTHROPIC_API_KEY' },
            chat: { models: { fast: 'claude-haiku-4-5' } },
          },
        },
        routes,
      },
      { env: { ANTHROPIC_API_KEY: 'sk-ant-from-env' } },
    );
    expect(config.providers.claude).toEqual({
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'sk-ant-from-env',
      authHeader: 'x-api-key',
      anthropicVersion: '2023-06-01',
      headers: {},
      chat: { models: { fast: 'claude-haiku-4-5' }, maxTokens: 1024 },
    });
  });

  it('takes a gateway: its baseUrl (trailing slash dropped), Bearer auth, a version, extra headers and maxTokens', () => {
    const config = parseConfig({
      providers: {
        claude: {
          kind: 'anthropic',
          baseUrl: 'https://api.n1n.ai/',
          apiKey: 'n1n-key',
          authHeader: 'bearer',
          anthropicVersion: '2024-01-01',
          headers: { 'anthropic-beta': 'tools-2024' },
          chat: { models: { smart: 'claude-sonnet-4-5' }, maxTokens: 4096 },
        },
      },
      routes,
    });
    expect(config.providers.claude).toMatchObject({
      baseUrl: 'https://api.n1n.ai',
      authHeader: 'bearer',
      anthropicVersion: '2024-01-01',
      headers: { 'anthropic-beta': 'tools-2024' },
      chat: { maxTokens: 4096 },
    });
    const adapter = createAdapter('claude', config.providers.claude!, { load: loadAdapters });
    expect(adapter.name).toBe('claude');
    expect(typeof adapter.chat?.chat).toBe('function');
    expect(adapter.tts).toBeUndefined();
  });

  it('requires apiKey, refuses unknown keys, tts sections, bad enums and reserved headers, naming each path', () => {
    expect(
      issuesOf({
        kind: 'anthropic',
        authHeader: 'basic',
        maxTokens: 5,
        tts: { voices: { a: 'b' } },
        headers: { 'X-Api-Key': 'k', 'anthropic-version': 'v' },
        chat: { models: { fast: 'm' }, maxTokens: 0 },
      }),
    ).toEqual([
      ['providers.claude.apiKey', 'required, but missing (a string or { env: "VARIABLE_NAME" })'],
      ['providers.claude.authHeader', 'must be one of "x-api-key", "bearer"'],
      ['providers.claude.chat.maxTokens', 'must be > 0 tokens'],
      ['providers.claude.maxTokens', 'unknown key'],
      ['providers.claude.tts', 'unknown key'],
      [
        'providers.claude.headers.X-Api-Key',
        'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
      ],
      [
        'providers.claude.headers.anthropic-version',
        'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
      ],
    ]);
  });

  it('refuses headers that would replace the key or the version', () => {
    expect(
      issuesOf({
        kind: 'anthropic',
        apiKey: 'k',
        headers: { 'X-Api-Key': 'other', Authorization: 'Bearer x', 'anthropic-version': '2020-01-01' },
        chat: { models: { fast: 'm' } },
      }),
    ).toEqual([
      [
        'providers.claude.headers.X-Api-Key',
        'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
      ],
      [
        'providers.claude.headers.Authorization',
        'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
      ],
      [
        'providers.claude.headers.anthropic-version',
        'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
      ],
    ]);
  });

  it('needs the chat section to have a capability', () => {
    expect(issuesOf({ kind: 'anthropic', apiKey: 'k' })).toContainEqual([
      'providers.claude',
      'has no capability: add a tts, stt or chat section',
    ]);
  });
});
