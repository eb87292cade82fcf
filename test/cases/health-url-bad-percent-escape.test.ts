/**
 * A `health.url` whose password holds a `%` that starts no escape (a password with a literal
 * `%`, pasted into the URL unencoded: `redis://:50%off-...@host`). The config passed; ioredis
 * then decoded the password with `decodeURIComponent`, which threw `URIError: URI malformed`, and
 * the fleet's own error cleaning threw the same again: `router.warmup()` rejected with that raw
 * URIError (naming no field), and without warmup the fleet stayed 'connecting' forever with no
 * event. It is now a ConfigError at `health.url`, literal or read from `{ env }`, that does not
 * quote the URL, before anything is contacted.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createRouter, loadConfig, parseConfig } from '../../src/index.js';

const MESSAGE =
  'the user name or password holds a bad % escape (each % must start a %XX escape of UTF-8 bytes: write a literal % as %25)';

/** Reads as fake on purpose; `%of` is no escape. */
const BAD_URL = 'redis://:50%off-NOT-A-REAL-PASSWORD@127.0.0.1:6379';

function config(url: unknown) {
  return {
    providers: {
      a: {
        kind: 'openai-compatible' as const,
        baseUrl: 'http://127.0.0.1:9/v1',
        chat: { models: { m: 'm' } },
      },
    },
    routes: { chat: { providers: ['a'] } },
    health: { store: 'redis' as const, url },
  };
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return error as ConfigError;
  }
  throw new Error('no ConfigError');
}

describe('a health URL whose password holds a bad % escape', () => {
  it.each([
    ['a % not followed by two hex digits', BAD_URL],
    ['a % at the end', 'redis://:NOT-A-REAL-PASSWORD%@127.0.0.1:6379'],
    ['an escape that is no UTF-8', 'redis://:NOT-A-REAL-PASSWORD%C3@127.0.0.1:6379'],
    ['in the user name', 'redis://us%zer:NOT-A-REAL-PASSWORD@127.0.0.1:6379'],
  ])('%s: createRouter throws a ConfigError at health.url', (_name, url) => {
    const error = configError(() => createRouter(config(url) as never));
    expect(error.issues).toEqual([{ path: ['health', 'url'], message: MESSAGE }]);
    expect(error.message).not.toContain('NOT-A-REAL-PASSWORD');
  });

  it('read from { env }: the same issue, the value not quoted', () => {
    const error = configError(() =>
      parseConfig(config({ env: 'FLEET_URL' }), { env: { FLEET_URL: BAD_URL } }),
    );
    expect(error.issues).toEqual([{ path: ['health', 'url'], message: MESSAGE }]);
    expect(error.message).not.toContain('NOT-A-REAL-PASSWORD');
  });

  it('in a config file: listed with the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'voxroute-health-url-'));
    const file = join(dir, 'voxroute.config.json');
    await writeFile(file, JSON.stringify(config(BAD_URL)));
    const error = await loadConfig(file).catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([{ path: ['health', 'url'], message: MESSAGE }]);
  });

  it('a password with its % written as %25 is a valid URL', () => {
    const parsed = parseConfig(config('redis://:50%25off-NOT-A-REAL-PASSWORD@127.0.0.1:6379'));
    expect(parsed.health?.url).toBe('redis://:50%25off-NOT-A-REAL-PASSWORD@127.0.0.1:6379');
  });
});
