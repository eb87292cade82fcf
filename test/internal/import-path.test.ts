import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBE_TEST_MS, ROOT as root, runProbe, sourceFiles } from '../helpers/import-probe.js';

/** Packages voxroute loads on first use (src/internal/require-package.ts), never at import. */
const LAZY_PACKAGES = ['zod', 'alawmulaw', 'eventsource-parser'];

/**
 * Source files that still import zod statically, so that importing voxroute still loads it.
 * src/config/route.ts is kept by another workstream; once its schemas get zod from
 * src/internal/zod.ts (like src/config/schema.ts), empty this list: the scan below fails until
 * then, and the probe then checks that importing voxroute loads no zod at all.
 */
const PENDING_ZOD_IMPORTERS: string[] = [];

interface Probe {
  afterImport: string[];
  afterUse: string[];
  controlSeen: boolean;
}

function probe(): Promise<Probe> {
  return runProbe('test/internal/fixtures/import-probe.mjs', { recordLoads: true });
}

describe('packages loaded on first use stay off the import path', () => {
  it(
    'importing voxroute (src/index.ts) loads none of zod, alawmulaw, eventsource-parser; using them loads each',
    async () => {
      const { afterImport, afterUse, controlSeen } = await probe();
      expect(afterImport).toEqual(PENDING_ZOD_IMPORTERS.length > 0 ? ['zod'] : []);
      // The controls: the probe sees each package once used, and sees a static ES module import.
      expect(afterUse).toEqual(LAZY_PACKAGES);
      expect(controlSeen).toBe(true);
    },
    PROBE_TEST_MS,
  );

  it(
    'createRouter() with a plain config loads no zod (the fast path); a config it does not vouch for does',
    async () => {
      const result = await runProbe<{ afterRouter: boolean; afterControl: boolean }>(
        'test/internal/fixtures/create-router-probe.mjs',
        { recordLoads: true },
      );
      expect(result).toEqual({ afterRouter: false, afterControl: true });
    },
    PROBE_TEST_MS,
  );

  it('no source file imports them statically except through src/internal (only `import type`)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'(zod|alawmulaw|eventsource-parser)(\/[^']*)?'/gm,
      )) {
        offenders.push(`${file.slice(root.length + 1)}: ${match[2]}`);
      }
    }
    expect(offenders).toEqual(PENDING_ZOD_IMPORTERS.map((file) => `${file}: zod`));
    expect(readFileSync(join(root, 'src/internal/zod.ts'), 'utf8')).toContain(
      "requirePackage<{ z: typeof z }>('zod')",
    );
  });
});
