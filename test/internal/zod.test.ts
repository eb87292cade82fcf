import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { z as esmZod } from 'zod';
import { lazySchema, zod } from '../../src/internal/zod.js';

describe('zod (loaded on first use)', () => {
  it("returns zod's `z` namespace of the CommonJS build, the same object on every call", () => {
    const z = zod();
    expect(z).toBe(createRequire(import.meta.url)('zod').z);
    expect(zod()).toBe(z);
  });

  it('builds working schemas: a failed parse gives the issue code and path', () => {
    const z = zod();
    const result = z.strictObject({ rate: z.number().int() }).safeParse({ rate: 'fast' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path])).toEqual([
      ['invalid_type', ['rate']],
    ]);
  });

  it('shares the description registry with zod loaded as an ES module (kept on globalThis)', () => {
    expect(zod().globalRegistry).toBe(esmZod.globalRegistry);
    const schema = zod().string().describe('A provider name.');
    expect(esmZod.toJSONSchema(schema)).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'string',
      description: 'A provider name.',
    });
  });

  it('lazySchema builds its schema once, on the first call, with that same zod', () => {
    let builds = 0;
    let given: unknown;
    const schema = lazySchema((z) => {
      builds++;
      given = z;
      return z.looseObject({ id: z.string() });
    });
    expect(builds).toBe(0);
    const first = schema();
    expect(schema()).toBe(first);
    expect(builds).toBe(1);
    expect(given).toBe(zod());
    expect(first.parse({ id: 'x', extra: 1 })).toEqual({ id: 'x', extra: 1 });
  });
});
