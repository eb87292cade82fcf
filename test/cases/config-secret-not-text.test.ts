/**
 * A secret given as something other than text or `{ env }`: bytes (`readFileSync('key.txt')`
 * without an encoding gives a Buffer; YAML's `!!binary` a Uint8Array), a Date (YAML
 * `!!timestamp`) or a Set (YAML `!!set`). The ConfigError read the object as a `{ env }` that had
 * gone wrong: `apiKey.env: required, but missing`, and for bytes one `apiKey.[redacted]: unknown
 * key` per byte (28 lines for a 27-byte key), never saying what was wrong. It is now one issue
 * at the secret's path naming what was given: `expected a string or { env: "VARIABLE_NAME" },
 * got binary data`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createRouter, loadConfig } from '../../src/index.js';

const EXPECTED = 'expected a string or { env: "VARIABLE_NAME" }';

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return error as ConfigError;
  }
  throw new Error('no ConfigError');
}

describe('a secret that is not text', () => {
  it('a Buffer (a key file read without an encoding) and a Date header value: one issue each', () => {
    const error = configError(() =>
      createRouter({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: 'http://127.0.0.1:9/v1',
            apiKey: Buffer.from('sk-test-NOT-A-REAL-KEY-0000\n') as never,
            headers: { 'X-Api-Key': new Date(0) as never },
            chat: { models: { m: 'm' } },
          },
        },
        routes: { chat: { providers: ['a'] } },
      }),
    );
    expect(error.issues).toEqual([
      { path: ['providers', 'a', 'apiKey'], message: `${EXPECTED}, got binary data` },
      { path: ['providers', 'a', 'headers', 'X-Api-Key'], message: `${EXPECTED}, got a Date` },
    ]);
  });

  it.each([
    ['!!binary', 'apiKey: !!binary c2stdGVzdC1OT1QtQS1SRUFMLUtFWQ==', 'binary data'],
    ['!!timestamp', 'apiKey: !!timestamp 2024-01-01', 'a Date'],
    ['!!set', 'apiKey: !!set { a, b }', 'a Set'],
  ])('YAML %s: one issue at the secret path', async (_tag, line, got) => {
    const dir = await mkdtemp(join(tmpdir(), 'voxroute-secret-not-text-'));
    const file = join(dir, 'voxroute.config.yaml');
    await writeFile(
      file,
      [
        'providers:',
        '  a:',
        '    kind: openai-compatible',
        '    baseUrl: http://127.0.0.1:9/v1',
        `    ${line}`,
        '    chat: { models: { m: m } }',
        'routes:',
        '  chat: { providers: [a] }',
        '',
      ].join('\n'),
    );
    const error = await loadConfig(file).catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([
      { path: ['providers', 'a', 'apiKey'], message: `${EXPECTED}, got ${got}` },
    ]);
  });
});
