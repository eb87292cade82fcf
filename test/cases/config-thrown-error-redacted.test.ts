/**
 * Whatever a config's own code throws is quoted in the ConfigError with the same redaction,
 * whichever way it threw: the module at its top level, its default export function (a
 * ConfigFactory, called with `{ env }`), or a getter of the config. A key in the thrown message
 * (shaped like a key, or the value of a secret-named variable of the env given to loadConfig)
 * reads `[redacted]`, in the message and in the cause.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/index.js';

const KEY = 'sk-proj-test-NOT-A-REAL-KEY-000000000000';
/** Not shaped like any key: redacted only as the value of a secret-named variable of the env. */
const VAULT_TOKEN = 'plain-vault-value-4471';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'voxroute-thrown-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadError(name: string, body: string, env: Record<string, string> = {}): Promise<ConfigError> {
  const file = join(dir, name);
  await writeFile(file, body);
  const error = await loadConfig(file, { env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ConfigError.isInstance(error)).toBe(true);
  return error as ConfigError;
}

function expectNoSecret(error: ConfigError, ...secrets: string[]): void {
  const cause = error.cause as Error;
  for (const secret of secrets) {
    for (const text of [error.message, cause.message, String(cause.stack)])
      expect(text).not.toContain(secret);
  }
}

describe('a config that throws: one redaction for every way it threw', () => {
  it('a config function (.mjs) whose error quotes a key', async () => {
    const error = await loadError(
      'factory.mjs',
      `export default () => { throw new Error('OPENAI key rejected by vault: ${KEY}'); };\n`,
    );
    expect(error.issues).toEqual([
      { path: [], message: 'the config function threw: OPENAI key rejected by vault: [redacted]' },
    ]);
    expect((error.cause as Error).message).toBe('OPENAI key rejected by vault: [redacted]');
    expectNoSecret(error, KEY, 'NOT-A-REAL-KEY');
  });

  it('an async config function (.ts) whose error quotes the value of a secret of its env', async () => {
    const error = await loadError(
      'factory.ts',
      'export default async ({ env }: { env: Record<string, string> }) => {\n' +
        "  throw new TypeError('lease ' + env.VAULT_TOKEN + ' expired');\n};\n",
      { VAULT_TOKEN },
    );
    expect(error.issues).toEqual([
      { path: [], message: 'the config function threw: TypeError: lease [redacted] expired' },
    ]);
    expectNoSecret(error, VAULT_TOKEN);
  });

  it("a secret of loadConfig's env that holds one of process.env's is redacted whole", async () => {
    process.env.VOXROUTE_TEST_OVERLAP_TOKEN = 'overlap-secret-8842';
    try {
      const error = await loadError(
        'overlap.mjs',
        "export default ({ env }) => { throw new Error('got ' + env.VAULT_KEY + ' back'); };\n",
        { VAULT_KEY: 'overlap-secret-8842-tail-77' },
      );
      expect(error.issues).toEqual([{ path: [], message: 'the config function threw: got [redacted] back' }]);
      expectNoSecret(error, 'overlap-secret-8842', 'tail-77');
    } finally {
      delete process.env.VOXROUTE_TEST_OVERLAP_TOKEN;
    }
  });

  it('the same error thrown at module level reads the same', async () => {
    const error = await loadError('module.mjs', `throw new Error('OPENAI key rejected by vault: ${KEY}');\n`);
    expect(error.issues).toEqual([
      { path: [], message: 'could not load the module: OPENAI key rejected by vault: [redacted]' },
    ]);
    expectNoSecret(error, KEY, 'NOT-A-REAL-KEY');
  });

  it('a getter of the returned config that throws the key', async () => {
    const error = await loadError(
      'getter.mjs',
      'export default () => ({\n' +
        "  providers: { a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', chat: { models: { m: 'x' } },\n" +
        `    get apiKey() { throw new Error('vault gave ${KEY}'); } } },\n` +
        "  routes: { chat: { providers: ['a'] } },\n});\n",
    );
    expect(error.issues).toEqual([
      {
        path: ['providers', 'a', 'apiKey'],
        message: 'cannot be read: reading it threw (Error: vault gave [redacted])',
      },
    ]);
    expectNoSecret(error, KEY, 'NOT-A-REAL-KEY');
  });
});
