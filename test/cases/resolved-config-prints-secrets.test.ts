/**
 * A resolved config (parseConfig/loadConfig) printed while debugging (console.log, util.inspect,
 * JSON.stringify, of the whole config or of one provider) shows `[redacted]` for every secret:
 * API keys, credential headers, AWS credentials, secrets in a URL's query, the health store URL's
 * password. The code still reads the real values, and a spread copy keeps them.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/index.js';

const KEY = 'test-proj-PRINTSECRET0123456789abcdef';
const SHORT = 'abc1'; // shorter than the error redactor's minimum, still a key
const HEADER = 'hdr-SECRET-value-42';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const QUERY = 'querySECRET987';
const REDIS_PASSWORD = 'redisPASSWORD55';

const config = parseConfig(
  {
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: `http://127.0.0.1:9/v1?api_key=${QUERY}`,
        apiKey: KEY,
        headers: { 'X-Api-Key': HEADER, 'User-Agent': 'voice-app' },
        chat: { models: { fast: 'm' } },
      },
      b: { kind: 'anthropic', apiKey: SHORT, chat: { models: { fast: 'm' } } },
      s: {
        kind: 'sagemaker',
        region: 'us-east-1',
        endpointName: 'e',
        credentials: { accessKeyId: 'TESTACCESSKEYIDPRINT', secretAccessKey: { env: 'AWS_SECRET' } },
        chat: { models: { fast: 'm' } },
      },
    },
    routes: { chat: { providers: ['a', 'b'] } },
    health: { store: 'redis', url: `redis://:${REDIS_PASSWORD}@127.0.0.1:6379` },
  },
  { env: { AWS_SECRET } },
);
const SECRETS = [KEY, SHORT, HEADER, AWS_SECRET, 'TESTACCESSKEYIDPRINT', QUERY, REDIS_PASSWORD];
const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

describe('a resolved config prints its secrets as [redacted]', () => {
  it.each<[string, () => string]>([
    ['JSON.stringify(config)', () => JSON.stringify(config)],
    ['util.inspect(config) at any depth', () => inspect(config, { depth: Number.POSITIVE_INFINITY })],
    [
      'util.inspect of one provider',
      () => inspect(config.providers.a, { depth: 5 }) + inspect(config.providers.b),
    ],
    [
      'JSON.stringify of the headers',
      () => JSON.stringify((config.providers.a as { headers: object }).headers),
    ],
    [
      'util.inspect of the AWS credentials',
      () => inspect((config.providers.s as { credentials: object }).credentials),
    ],
    ['JSON.stringify of the health section', () => JSON.stringify(config.health)],
  ])('%s', (_label, print) => {
    const text = print();
    expect(leaked(text)).toEqual([]);
    expect(text).toContain('[redacted]');
  });

  it('keeps what is no secret readable, and the real values usable', () => {
    const json = JSON.parse(JSON.stringify(config));
    expect(json.providers.a.apiKey).toBe('[redacted]');
    expect(json.providers.a.baseUrl).toBe('http://127.0.0.1:9/v1?api_key=[redacted]');
    expect(json.providers.a.headers).toEqual({ 'X-Api-Key': '[redacted]', 'User-Agent': 'voice-app' });
    expect(json.providers.b.apiKey).toBe('[redacted]');
    expect(json.routes.chat.providers).toEqual(['a', 'b']);
    const a = config.providers.a as { apiKey: string; headers: Record<string, string> };
    expect([a.apiKey, a.headers['X-Api-Key']]).toEqual([KEY, HEADER]);
    expect({ ...a }.apiKey).toBe(KEY);
    expect(Object.keys(a)).not.toContain('toJSON');
  });
});
