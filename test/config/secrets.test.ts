import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { collectSecretLiterals, redactIssues } from '../../src/config/redact.js';
import { asOpenAi, configErrorOf, validConfig } from './helpers.js';

const SECRET = 'sk-live-9f8e7d6c5b4a3210';

describe('secrets', () => {
  it('reads { env } secrets from options.env, in apiKey and in header values', () => {
    const input = validConfig();
    input.providers['ec2-a'].apiKey = { env: 'EC2_API_KEY' };
    input.providers['ec2-a'].headers = { 'X-Org': { env: 'ORG_ID' }, 'X-Static': 'static-value' };
    const config = parseConfig(input, {
      env: { OPENAI_API_KEY: 'sk-openai-value', EC2_API_KEY: 'ec2-key-value', ORG_ID: 'org-42' },
    });
    const ec2 = asOpenAi(config.providers['ec2-a']);
    expect(ec2?.apiKey).toBe('ec2-key-value');
    expect(ec2?.headers).toEqual({ 'X-Org': 'org-42', 'X-Static': 'static-value' });
    expect(asOpenAi(config.providers.openai).apiKey).toBe('sk-openai-value');
  });

  it('leaves apiKey undefined when an openai-compatible provider has none', () => {
    const config = parseConfig(validConfig(), { env: { OPENAI_API_KEY: 'x' } });
    expect(asOpenAi(config.providers['ec2-a']).apiKey).toBeUndefined();
    expect(Object.hasOwn(config.providers['ec2-a'] ?? {}, 'apiKey')).toBe(false);
  });

  it('reads process.env by default', () => {
    const name = 'VOXROUTE_TEST_KEY_DEFAULT_ENV';
    process.env[name] = 'from-process-env';
    try {
      const input = validConfig();
      input.providers.openai.apiKey = { env: name };
      expect(asOpenAi(parseConfig(input).providers.openai).apiKey).toBe('from-process-env');
    } finally {
      delete process.env[name];
    }
  });

  it('names every unset or empty variable with the path of its secret', () => {
    const input = validConfig();
    input.providers['ec2-a'].headers = { 'X-Org': { env: 'ORG_ID' } };
    const error = configErrorOf(() => parseConfig(input, { env: { ORG_ID: '' } }));
    expect(error.issues).toEqual([
      { path: ['providers', 'ec2-a', 'headers', 'X-Org'], message: 'environment variable ORG_ID is empty' },
      { path: ['providers', 'openai', 'apiKey'], message: 'environment variable OPENAI_API_KEY is not set' },
    ]);
    expect(error.message).toContain(
      'providers.openai.apiKey: environment variable OPENAI_API_KEY is not set',
    );
  });

  it('never puts a literal apiKey or header value of an otherwise invalid config in the message', () => {
    const input = validConfig();
    input.providers.openai.apiKey = SECRET;
    input.providers['ec2-a'].headers = { 'X-Api-Key': `${SECRET}-header`, [SECRET]: 'x' };
    input.providers.openai.tts.voices = SECRET;
    input.providers.openai.baseUrl = SECRET;
    input.routes.tts.providers = ['openai', SECRET];
    input.routes.tts[SECRET] = SECRET;
    const error = configErrorOf(() => parseConfig(input, { env: { OPENAI_API_KEY: SECRET } }));
    expect(error.issues.length).toBeGreaterThanOrEqual(4);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('9f8e7d6c');
    expect(JSON.stringify(error.issues)).not.toContain(SECRET);
    expect(error.cause).toBeUndefined();
  });

  it('never puts the value of an env secret in the message', () => {
    const input = validConfig();
    input.providers.openai.tts.sampleRate = 'bad';
    const error = configErrorOf(() => parseConfig(input, { env: { OPENAI_API_KEY: SECRET } }));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'openai', 'tts', 'sampleRate'],
        message: 'expected a number, got a string',
      },
    ]);
    expect(error.message).not.toContain(SECRET);
  });

  it('redacts literal secrets found under secret-named keys, longest first', () => {
    const input = {
      providers: { a: { apiKey: 'abcdefgh', headers: { 'X-Api-Key': 'abcdefgh-long' }, model: 'abcdef' } },
    };
    expect(collectSecretLiterals(input)).toEqual(['abcdefgh-long', 'abcdefgh']);
    expect(
      redactIssues(
        [{ path: ['x', 'abcdefgh-long'], message: 'got abcdefgh-long and abcdefgh and abcdef' }],
        input,
      ),
    ).toEqual([{ path: ['x', '[redacted]'], message: 'got [redacted] and [redacted] and abcdef' }]);
  });
});
