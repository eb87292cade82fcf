/**
 * A resolved config prints `[redacted]` for the secrets it holds when it is printed, not only
 * for those it held when parseConfig resolved it. Before, the secret values were collected once
 * at resolution: a key put into the config afterwards (a rotated key fetched from a vault, a
 * `baseUrl` with `?api_key=`, a health URL with a password) was redacted only where its key's
 * name said "secret", and printed in clear in a URL or any other field. Keys a config factory
 * computed from the environment and `{ env }` keys are redacted as literal ones are.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/index.js';

const ENV_KEY = 'test-env-LATERKEY0123456789';
const VAULT_KEY = 'test-vault-ROTATED987654321';
const QUERY_KEY = 'queryLATER5555abc';
const REDIS_PASSWORD = 'redisLATERpass42';
const FACTORY_KEY = 'test-factory-KEY13579';
const FACTORY_QUERY = 'factoryQUERY2468';

const resolved = () =>
  parseConfig(
    {
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: { env: 'GPU_KEY' },
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['a'] } },
    },
    { env: { GPU_KEY: ENV_KEY } },
  );

/** Every way a config or a part of it gets printed while debugging. */
function printed(config: object, part: object): string {
  return [
    JSON.stringify(config),
    inspect(config, { depth: Number.POSITIVE_INFINITY }),
    JSON.stringify(part),
    inspect(part, { depth: Number.POSITIVE_INFINITY }),
  ].join('\n');
}

const leaked = (text: string, secrets: readonly string[]) => secrets.filter((s) => text.includes(s));

describe('secrets-set-after-resolution: a resolved config redacts the secrets it holds when printed', () => {
  it('secrets-set-after-resolution: a key read from the environment is redacted', () => {
    const config = resolved();
    const text = printed(config, config.providers.a!);
    expect(leaked(text, [ENV_KEY])).toEqual([]);
    expect((config.providers.a as { apiKey: string }).apiKey).toBe(ENV_KEY);
  });

  it('secrets-set-after-resolution: a key set after resolution, also written in a header and a URL', () => {
    const config = resolved();
    const a = config.providers.a as { apiKey: string; baseUrl: string; headers: Record<string, string> };
    a.apiKey = VAULT_KEY;
    // A gateway that wants the key in the query and a trace header that echoes it.
    a.baseUrl = `http://127.0.0.1:9/v1?key=${VAULT_KEY}`;
    a.headers['X-Trace'] = `trace ${VAULT_KEY}`;
    const text = printed(config, a);
    expect(leaked(text, [VAULT_KEY])).toEqual([]);
    expect(JSON.parse(JSON.stringify(a))).toMatchObject({
      apiKey: '[redacted]',
      baseUrl: 'http://127.0.0.1:9/v1?key=[redacted]',
    });
    expect([a.apiKey, a.baseUrl]).toEqual([VAULT_KEY, `http://127.0.0.1:9/v1?key=${VAULT_KEY}`]);
  });

  it('secrets-set-after-resolution: a baseUrl with a secret query set after resolution', () => {
    const config = resolved();
    const a = config.providers.a as { baseUrl: string };
    a.baseUrl = `http://127.0.0.1:9/v1?api_key=${QUERY_KEY}`;
    expect(leaked(printed(config, a), [QUERY_KEY])).toEqual([]);
    expect(JSON.parse(JSON.stringify(a)).baseUrl).toBe('http://127.0.0.1:9/v1?api_key=[redacted]');
  });

  it('secrets-set-after-resolution: a health section with a password attached after resolution, printed with the config', () => {
    const config = resolved();
    (config as { health?: object }).health = {
      store: 'redis',
      url: `redis://:${REDIS_PASSWORD}@127.0.0.1:6379`,
      keyPrefix: 'voxroute:',
    };
    const text = [JSON.stringify(config), inspect(config, { depth: Number.POSITIVE_INFINITY })].join('\n');
    expect(leaked(text, [REDIS_PASSWORD])).toEqual([]);
    expect(JSON.parse(JSON.stringify(config)).health.url).toBe('redis://:[redacted]@127.0.0.1:6379');
  });

  it('secrets-set-after-resolution: keys a config factory computed from the environment are redacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vox-factory-secrets-'));
    const file = join(dir, 'voxroute.config.mjs');
    writeFileSync(
      file,
      `export default async ({ env }) => ({
  providers: {
    a: {
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1?api_key=' + env.GW_QUERY,
      apiKey: env.GW_KEY,
      headers: { 'X-Gateway-Key': env.GW_KEY },
      chat: { models: { fast: 'm' } },
    },
  },
  routes: { chat: { providers: ['a'] } },
});
`,
    );
    const config = await loadConfig(file, { env: { GW_KEY: FACTORY_KEY, GW_QUERY: FACTORY_QUERY } });
    expect(leaked(printed(config, config.providers.a!), [FACTORY_KEY, FACTORY_QUERY])).toEqual([]);
    expect((config.providers.a as { apiKey: string }).apiKey).toBe(FACTORY_KEY);
  });
});
