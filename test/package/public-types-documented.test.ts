/**
 * Every name a user can import (from `voxroute` and each subpath) is mentioned on at least one
 * page of docs/. The export lists come from the TypeScript compiler reading the entry files, so
 * `export *` and type-only exports count as they do for users.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entries = {
  voxroute: 'src/index.ts',
  'voxroute/testing': 'src/testing/index.ts',
  'voxroute/ai-sdk': 'src/ai-sdk/index.ts',
  'voxroute/livekit': 'src/livekit/index.ts',
} as const;

function exportedNames(): Map<string, string[]> {
  const files = Object.values(entries).map((f) => `${root}${f}`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const [subpath, file] of Object.entries(entries)) {
    const source = program.getSourceFile(`${root}${file}`);
    if (source === undefined) throw new Error(`cannot read ${file}`);
    const symbol = checker.getSymbolAtLocation(source);
    if (symbol === undefined) throw new Error(`${file} is not a module`);
    out.set(
      subpath,
      checker
        .getExportsOfModule(symbol)
        .map((s) => s.getName())
        .sort(),
    );
  }
  return out;
}

function docsText(): string {
  const dir = `${root}docs/`;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(`${dir}${f}`, 'utf8'))
    .join('\n');
}

describe('public exports are documented', () => {
  const names = exportedNames();
  const docs = docsText();

  it('reads the export lists of every entry point', () => {
    expect(names.get('voxroute')).toContain('createRouter');
    expect(names.get('voxroute')).toContain('AudioFormat');
    expect(names.get('voxroute/testing')?.length).toBeGreaterThan(10);
    expect(names.get('voxroute/ai-sdk')).toContain('createVoxroute');
    expect(names.get('voxroute/livekit')).toContain('TTS');
  });

  for (const subpath of Object.keys(entries)) {
    it(`every export of ${subpath} appears on a docs/*.md page`, () => {
      const missing = (names.get(subpath) ?? []).filter(
        (name) => !new RegExp(`(^|[^A-Za-z0-9_$])${name.replace(/\$/g, '\\$')}([^A-Za-z0-9_$]|$)`).test(docs),
      );
      expect(missing).toEqual([]);
    });
  }
});
