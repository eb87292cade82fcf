import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

async function probe(): Promise<{ afterImport: number; afterLoad: number }> {
  const { stdout } = await run(
    process.execPath,
    ['scripts/run-ts.mjs', 'test/providers/sagemaker/fixtures/import-probe.mjs'],
    {
      cwd: root,
      timeout: 30_000,
    },
  );
  return JSON.parse(stdout) as { afterImport: number; afterLoad: number };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the AWS SDK is loaded lazily', () => {
  it('importing voxroute (src/index.ts) and voxroute/testing loads no @aws-sdk or @smithy module; loading the SDK does', async () => {
    const { afterImport, afterLoad } = await probe();
    expect(afterImport).toBe(0);
    // The control: the probe does see the SDK once it is loaded.
    expect(afterLoad).toBeGreaterThan(0);
  }, 60_000);

  it('no source file imports the AWS SDK or the event-stream codec statically (only `import type` and `import(`)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(@aws-sdk\/[^']+|@smithy\/[^']+)'/gm,
      )) {
        offenders.push(`${file.slice(root.length + 1)}: ${match[2]}`);
      }
    }
    expect(offenders).toEqual([]);
    const loader = readFileSync(join(root, 'src/providers/sagemaker/sdk-client.ts'), 'utf8');
    expect(loader).toContain("import('@aws-sdk/client-sagemaker-runtime')");
  });
});
