/**
 * ConfigError messages are in the house style everywhere: Infinity and NaN are "not finite"
 * (never "got a Infinity"), every bound zod would word itself ("Too big: expected number to be
 * <=1") reads `must be <= 1` / `must not be empty`, and a required field that is absent says
 * "required, but missing", also where its schema has its own words ("expected a string or
 * { env }"). Each message names the field's path.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/index.js';

const chat = { models: { fast: 'm' } };
const route = (fields: Record<string, unknown>) => ({
  providers: { a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat } },
  routes: { chat: { providers: ['a'], ...fields } },
});
const provider = (p: Record<string, unknown>) => ({ providers: { p }, routes: {} });
const sagemaker = {
  kind: 'sagemaker',
  region: 'us-east-1',
  endpointName: 'e',
  chat: { models: { fast: 'm' } },
};
const SECRET = 'required, but missing (a string or { env: "VARIABLE_NAME" })';

const cases: Array<[string, unknown, string, string]> = [
  [
    'Infinity',
    route({ totalTimeoutMs: Infinity }),
    'routes.chat.totalTimeoutMs',
    'expected a finite number, got Infinity',
  ],
  [
    'NaN',
    route({ totalTimeoutMs: Number.NaN }),
    'routes.chat.totalTimeoutMs',
    'expected a finite number, got NaN',
  ],
  [
    'hedge.maxShare above 1',
    route({ hedge: { after: 'auto', maxShare: 2 } }),
    'routes.chat.hedge.maxShare',
    'must be <= 1',
  ],
  [
    'hedge.maxShare below 0',
    route({ hedge: { after: 'auto', maxShare: -0.5 } }),
    'routes.chat.hedge.maxShare',
    'must be >= 0',
  ],
  ['openai without apiKey', provider({ kind: 'openai', chat }), 'providers.p.apiKey', SECRET],
  ['anthropic without apiKey', provider({ kind: 'anthropic', chat }), 'providers.p.apiKey', SECRET],
  [
    'cartesia without apiKey',
    provider({ kind: 'cartesia', tts: { voices: { agent: 'v' } } }),
    'providers.p.apiKey',
    SECRET,
  ],
  ['deepgram without apiKey', provider({ kind: 'deepgram', stt: {} }), 'providers.p.apiKey', SECRET],
  [
    'elevenlabs without apiKey',
    provider({ kind: 'elevenlabs', tts: { voices: { agent: 'v' } } }),
    'providers.p.apiKey',
    SECRET,
  ],
  [
    'openai-compatible without baseUrl',
    provider({ kind: 'openai-compatible', chat }),
    'providers.p.baseUrl',
    'required, but missing (an http:// or https:// URL or { env: "VARIABLE_NAME" })',
  ],
  [
    'sagemaker with an empty targetVariant',
    provider({ ...sagemaker, targetVariant: '' }),
    'providers.p.targetVariant',
    'must not be empty',
  ],
  [
    'sagemaker with an empty sessionId',
    provider({ ...sagemaker, sessionId: '' }),
    'providers.p.sessionId',
    'must not be empty',
  ],
];

function issuesOf(config: unknown): Array<[string, string]> {
  try {
    parseConfig(config);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((i) => [i.path.join('.'), i.message]);
  }
  return [];
}

describe('ConfigError wording', () => {
  it.each(cases.filter(([, , path]) => path !== ''))('%s', (_label, config, path, message) => {
    expect(issuesOf(config)).toContainEqual([path, message]);
    const all = issuesOf(config)
      .map(([p, m]) => `${p}: ${m}`)
      .join('\n');
    expect(all).not.toMatch(/Too (big|small)|Invalid input|got a [A-Z]|expected nonoptional/);
  });

  it('no message of any case keeps zod wording or a wrong article', () => {
    const messages = cases.flatMap(([, config]) => issuesOf(config).map(([, m]) => m));
    expect(messages.filter((m) => /Too (big|small)|Invalid input|\ba [aeiouAEIOU]\w/.test(m))).toEqual([]);
  });
});
