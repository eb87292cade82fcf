import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { configErrorOf, validConfig } from './helpers.js';

const env = { OPENAI_API_KEY: 'sk-test-key-123456', REDIS_URL: 'redis://:s3cr3t-pass@127.0.0.1:6390/2' };

function withHealth(health: unknown): unknown {
  return { ...(validConfig() as object), health };
}

describe('config: health (fleet-shared health on Redis)', () => {
  it('applies the default keyPrefix and reads the URL from the environment', () => {
    const config = parseConfig(withHealth({ store: 'redis', url: { env: 'REDIS_URL' } }), { env });
    expect(config.health).toEqual({ store: 'redis', url: env.REDIS_URL, keyPrefix: 'voxroute:' });
  });

  it('keeps a literal URL and a keyPrefix', () => {
    const config = parseConfig(
      withHealth({ store: 'redis', url: 'rediss://cache:6380', keyPrefix: 'app1:' }),
      {
        env,
      },
    );
    expect(config.health).toEqual({ store: 'redis', url: 'rediss://cache:6380', keyPrefix: 'app1:' });
  });

  it('has no health when the section is absent', () => {
    expect(parseConfig(validConfig(), { env }).health).toBeUndefined();
  });

  it('names every bad field with its path', () => {
    const error = configErrorOf(() =>
      parseConfig(withHealth({ store: 'memcached', url: '', keyPrefix: '', extra: 1 }), { env }),
    );
    expect(error.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'health.extra',
      'health.keyPrefix',
      'health.store',
      'health.url',
    ]);
  });

  it('rejects a URL that is not redis:// or rediss:// without quoting it', () => {
    const error = configErrorOf(() =>
      parseConfig(withHealth({ store: 'redis', url: { env: 'BAD_URL' } }), {
        env: { ...env, BAD_URL: 'http://user:hunter2@x' },
      }),
    );
    expect(error.issues).toEqual([
      { path: ['health', 'url'], message: 'must be a redis:// or rediss:// URL with a host' },
    ]);
    expect(error.message).not.toContain('hunter2');
  });

  it('names an unset URL variable', () => {
    const error = configErrorOf(() =>
      parseConfig(withHealth({ store: 'redis', url: { env: 'NO_SUCH_REDIS' } }), { env }),
    );
    expect(error.issues).toEqual([
      { path: ['health', 'url'], message: 'environment variable NO_SUCH_REDIS is not set' },
    ]);
  });
});
