/**
 * Fault kind: a config issue held back until the others are fixed. docs/config.md promises every
 * invalid field "all at once"; a literal `health.url` that is not a Redis URL was checked only
 * after the schema passed, so a config with any other issue hid it (fix one, meet the next).
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { configErrorOf, validConfig } from './helpers.js';

const env = { OPENAI_API_KEY: 'sk-test-key-123456' };

describe('config issues are listed at once', () => {
  it('a literal health.url that is not redis:// is listed with a provider issue, unquoted', () => {
    const config = validConfig() as { providers: Record<string, Record<string, unknown>> };
    const first = Object.keys(config.providers)[0]!;
    const input = {
      ...config,
      providers: { ...config.providers, [first]: { ...config.providers[first], baseUrl: 'ftp://x' } },
      health: { store: 'redis', url: 'http://:s3cr3t-pass@cache:6379' },
    };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [`providers.${first}.baseUrl`, expect.any(String)],
      ['health.url', 'must be a redis:// or rediss:// URL with a host'],
    ]);
    expect(error.message).not.toContain('s3cr3t-pass');
  });

  it('a health.url read from { env } is still checked once read, without quoting it', () => {
    const error = configErrorOf(() =>
      parseConfig(
        { ...(validConfig() as object), health: { store: 'redis', url: { env: 'REDIS_URL' } } },
        { env: { ...env, REDIS_URL: 'http://:s3cr3t-pass@cache' } },
      ),
    );
    expect(error.issues).toEqual([
      { path: ['health', 'url'], message: 'must be a redis:// or rediss:// URL with a host' },
    ]);
    expect(error.message).not.toContain('s3cr3t-pass');
  });
});
