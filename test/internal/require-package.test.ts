import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { requirePackage } from '../../src/internal/require-package.js';

const require = createRequire(import.meta.url);

describe('requirePackage', () => {
  it("loads a package's CommonJS build, the same module object as Node's require", () => {
    const parser = requirePackage<typeof import('eventsource-parser')>('eventsource-parser');
    expect(parser).toBe(require('eventsource-parser'));
    expect(typeof parser.createParser).toBe('function');
    expect(require.resolve('eventsource-parser')).toMatch(
      /\/node_modules\/eventsource-parser\/dist\/index\.cjs$/,
    );
  });

  it('loads a UMD package with its named exports (alawmulaw: mulaw and alaw)', () => {
    const codecs = requirePackage<{
      mulaw: { decodeSample(code: number): number };
      alaw: { encodeSample(sample: number): number };
    }>('alawmulaw');
    expect(codecs.mulaw.decodeSample(0x00)).toBe(-32124);
    expect(codecs.alaw.encodeSample(0)).toBe(0xd5);
  });

  it('throws MODULE_NOT_FOUND for a package that is not installed', () => {
    let caught: unknown;
    try {
      requirePackage('voxroute-no-such-package');
    } catch (error) {
      caught = error;
    }
    expect((caught as { code?: unknown }).code).toBe('MODULE_NOT_FOUND');
    expect(String((caught as Error).message)).toContain("Cannot find module 'voxroute-no-such-package'");
  });
});
