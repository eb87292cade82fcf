/**
 * Kind: a credential pattern must not eat ordinary text. jiti reports a TypeScript config's
 * syntax error as `Unexpected token <path>:<line>:<column>`; the `Token <credential>` rule took
 * the path for a credential, and the user saw `Unexpected [redacted]` with no file or line.
 * A credential after `Bearer`/`Basic`/`Token` starts with a letter or digit (an absolute path
 * starts with `/`); real ones are still redacted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redactKeyShapes } from '../../src/config/redact.js';
import { ConfigError, loadConfig } from '../../src/index.js';

describe('parse error location shown', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a TypeScript config with a syntax error: the message keeps "Unexpected token", the path and the line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'voxroute-parse-'));
    const file = join(dir, 'voxroute.config.ts');
    writeFileSync(file, 'export default {\n');
    const error = await loadConfig(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`Unexpected token ${file}:2:0`);
    expect((error as ConfigError).message).not.toContain('[redacted]');
  });

  it('Bearer, Basic and Token credentials are still redacted, in either case', () => {
    expect(redactKeyShapes('a Bearer abc123def456 b basic dXNlcjpwYXNzMTIz c token 0f3a9c1e2b4d6f80 d')).toBe(
      'a [redacted] b [redacted] c [redacted] d',
    );
    expect(redactKeyShapes('Unexpected token /srv/app/voxroute.config.ts:12:4')).toBe(
      'Unexpected token /srv/app/voxroute.config.ts:12:4',
    );
  });
});
