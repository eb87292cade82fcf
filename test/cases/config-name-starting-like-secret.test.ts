/**
 * A name that is the start of a secret value stays readable in a ConfigError: config texts are
 * never cut, so only whole secrets are redacted there (the cut-off-start rule is for provider
 * texts cut by a length: excerpts, WebSocket close reasons). And only credential headers hold
 * secrets: `User-Agent` is shown, `Authorization`/`X-Api-Key`/`Cookie`/`...-Token` are not.
 */
import { describe, expect, it } from 'vitest';
import { collectSecretLiterals } from '../../src/config/redact.js';
import { ProviderError } from '../../src/errors/provider-error.js';
import { createErrorRedactor, redactText } from '../../src/errors/redact.js';
import { type ConfigError, parseConfig } from '../../src/index.js';
import { configErrorOf } from '../config/helpers.js';

const configError = (input: unknown): ConfigError =>
  configErrorOf(() => parseConfig(input as never, { env: {} }));

const issues = (e: ConfigError) => e.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('a name that starts like a secret is shown', () => {
  it('provider acme-voice-gw whose key starts with its name: path and message show the name', () => {
    const e = configError({
      providers: {
        'acme-voice-gw': {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:1/v1',
          apiKey: 'acme-voice-gw-7f3k9q2m5x8p',
          chat: { models: { fast: 'm' } },
          bogusField: 1,
        },
      },
      routes: { chat: { providers: ['acme-voice-gw', 'acme-voice-gwx'] } },
    });
    const text = issues(e).join('\n');
    expect(text).toContain('providers.acme-voice-gw.bogusField');
    expect(text).toContain('unknown provider "acme-voice-gwx"');
    expect(`${e.message}${JSON.stringify(e.issues)}`).not.toContain('7f3k9q2m5x8p');
  });

  it('a whole secret is still redacted in a path segment and a message', () => {
    const key = 'acme-voice-gw-7f3k9q2m5x8p';
    const e = configError({
      providers: { a: { kind: 'openai', apiKey: key, chat: { models: { fast: 'm' } } } },
      routes: { chat: { providers: [key] } },
    });
    expect(issues(e)).toEqual(['routes.chat.providers.0: unknown provider "[redacted]"; the config has "a"']);
  });

  it("an error's provider field that starts like a secret is kept; a cut text at its end is redacted", () => {
    const redact = createErrorRedactor(['acme-voice-gw-7f3k9q2m5x8p']);
    const error = redact(new ProviderError('closed: key acme-voice-gw-7f3', { provider: 'acme-voice-gw' }));
    expect(error.provider).toBe('acme-voice-gw');
    expect(error.message).toBe('closed: key [redacted]');
    expect(redactText('reason: acme-voice-gw-7f…', ['acme-voice-gw-7f3k9q2m5x8p'])).toBe(
      'reason: [redacted]…',
    );
  });
});

describe('only credential headers are secrets', () => {
  it('User-Agent, Accept and X-Request-Id values are not; Authorization, X-Api-Key, Cookie, X-Auth-Token are', () => {
    const secrets = collectSecretLiterals({
      providers: {
        a: {
          headers: {
            'User-Agent': 'acme-voice-gw/2.3 (node)',
            Accept: 'application/json',
            'X-Request-Id': 'req-1234567',
            Authorization: 'Bearer abcdefgh12',
            'X-Api-Key': 'key-123456',
            Cookie: 'session=abcdef',
            'X-Auth-Token': 'tok-123456',
            'X-Client-Secret': 'shh-123456',
          },
        },
      },
    });
    expect(secrets.sort()).toEqual([
      'Bearer abcdefgh12',
      'key-123456',
      'session=abcdef',
      'shh-123456',
      'tok-123456',
    ]);
  });

  it('a key-shaped value under an unusual header name is a secret too', () => {
    const key = 'sk-live-4f9a2b7c' + '1d3e5f60718293a4b5c6d7e8'; // made up, in two parts (no key-shaped literal)
    const secrets = collectSecretLiterals({
      providers: { a: { headers: { 'X-Org': key, 'X-Region': 'eu-west-1', 'User-Agent': 'acme/2.3' } } },
    });
    expect(secrets).toEqual([key]);
  });

  it('a User-Agent that starts with the provider name leaves the name readable', () => {
    const e = configError({
      providers: {
        'acme-voice-gw': {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:1/v1',
          headers: { 'User-Agent': 'acme-voice-gw/2.3 (node)' },
          chat: { models: { fast: 'm' } },
          bogusField: 1,
        },
      },
      routes: { chat: { providers: ['acme-voice-gw'] } },
    });
    expect(issues(e).join('\n')).toContain('providers.acme-voice-gw.bogusField');
  });
});
