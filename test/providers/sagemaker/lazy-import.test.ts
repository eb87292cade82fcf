import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBE_TEST_MS, ROOT as root, runProbe, sourceFiles } from '../../helpers/import-probe.js';

function probe(): Promise<{ afterImport: number; afterLoad: number }> {
  return runProbe('test/providers/sagemaker/fixtures/import-probe.mjs', { recordLoads: false });
}

describe('the AWS SDK is loaded lazily', () => {
  it(
    'importing voxroute (src/index.ts) and voxroute/testing loads no @aws-sdk or @smithy module; loading the SDK does',
    async () => {
      const { afterImport, afterLoad } = await probe();
      expect(afterImport).toBe(0);
      // The control: the probe does see the SDK once it is loaded.
      expect(afterLoad).toBeGreaterThan(0);
    },
    PROBE_TEST_MS,
  );

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
