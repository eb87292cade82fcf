/**
 * The docs and the doc comments that ship in dist/*.d.ts speak to users: they name the public
 * API, a docs page or a public source, never a path of the source tree, an internal case id or
 * a document that is not in the package. Every name the docs import from `voxroute` (in any
 * code block, checked or not) and every name of the API reference exists, and every export is
 * in the API reference. Export lists and doc comments come from the TypeScript compiler reading
 * the entry files, as the declaration build does.
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
type Entry = keyof typeof entries;

/** References a user cannot follow: internal documents, case ids, the source tree. */
const INTERNAL = [
  /\b(?:DESIGN|PROTOCOLS|CASES|STYLE)\.md\b/,
  /\.\.\/shared\b/,
  /\(case C\d+\)|\bcase C\d+\b|\(C\d+\)/,
  /once the lead/,
];
const SOURCE_PATH = /(?<![\w/.-])src\/[\w./-]+/;

const program = ts.createProgram(
  Object.values(entries).map((f) => `${root}${f}`),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
);
const checker = program.getTypeChecker();

/** The exported symbols of each entry, aliases resolved. */
function exportsOf(entry: Entry): Map<string, ts.Symbol> {
  const source = program.getSourceFile(`${root}${entries[entry]}`);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`cannot read ${entries[entry]}`);
  const out = new Map<string, ts.Symbol>();
  for (const s of checker.getExportsOfModule(module)) {
    out.set(s.getName(), s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  }
  return out;
}
const exported = new Map(Object.keys(entries).map((e) => [e as Entry, exportsOf(e as Entry)]));

/** The doc comments of a declaration and of its members (what its .d.ts carries). */
function docComments(symbol: ts.Symbol): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = [];
  const visit = (node: ts.Node, name: string) => {
    for (const doc of ts.getJSDocCommentsAndTags(node)) {
      const file = node.getSourceFile();
      const line = file.getLineAndCharacterOfPosition(doc.getStart()).line + 1;
      out.push({ where: `${file.fileName.slice(root.length)}:${line} (${name})`, text: doc.getText() });
    }
  };
  for (const decl of symbol.declarations ?? []) {
    // Exported functions and consts carry their comment on the statement.
    visit(ts.isVariableDeclaration(decl) ? decl.parent.parent : decl, symbol.getName());
    if (ts.isInterfaceDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) {
      decl.forEachChild(function walk(child) {
        if (ts.isPropertySignature(child) || ts.isMethodSignature(child) || ts.isClassElement(child))
          visit(child, `${symbol.getName()}.${child.name?.getText() ?? ''}`);
        if (ts.isTypeLiteralNode(child) || ts.isUnionTypeNode(child) || ts.isIntersectionTypeNode(child))
          child.forEachChild(walk);
      });
    }
  }
  return out;
}

/** Pages a user reads: README.md and docs/*.md. */
const pages = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = new Map(pages.map((p) => [p, readFileSync(`${root}${p}`, 'utf8')]));

/**
 * Pages (and sections) written for contributors, which say so at their start: they may name the
 * source tree. Everything else is for users.
 */
const CONTRIBUTOR_PAGES = new Set(['docs/architecture.md', 'docs/decisions.md', 'docs/benchmarks.md']);
function userLines(page: string): Array<{ line: number; text: string }> {
  if (CONTRIBUTOR_PAGES.has(page)) return [];
  const out: Array<{ line: number; text: string }> = [];
  let contributorSection = false;
  const lines = text.get(page)!.split('\n');
  lines.forEach((line, i) => {
    if (/^#{2,3} /.test(line)) {
      // A section for contributors says so in its first paragraph.
      const next = lines.slice(i + 1, i + 6).join(' ');
      contributorSection = /for contributors/i.test(next);
    }
    if (!contributorSection) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** `import { a, type B, c as d } from 'voxroute...'` in the code blocks of a page. */
function importsOf(page: string): Array<{ entry: string; name: string; line: number }> {
  const out: Array<{ entry: string; name: string; line: number }> = [];
  const source = text.get(page)!;
  const re = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(voxroute(?:\/[\w-]+)?)'/g;
  for (const m of source.matchAll(re)) {
    const line = source.slice(0, m.index).split('\n').length;
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name !== '') out.push({ entry: m[2]!, name, line });
    }
  }
  return out;
}

/** The names of the API reference's table for `entry` (`| \`name\` | kind | ...`). */
function apiReference(entry: Entry): string[] {
  const api = text.get('docs/api.md')!;
  const start = api.indexOf(`## \`${entry}\`\n`);
  if (start < 0) throw new Error(`docs/api.md has no section for ${entry}`);
  const end = api.indexOf('\n## ', start + 1);
  const section = api.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([\w$]+)` \|/gm)].map((m) => m[1]!).sort();
}

describe('doc comments that ship in dist/*.d.ts', () => {
  it('finds the doc comments of the exports (the check can fail)', () => {
    const docs = docComments(exported.get('voxroute')!.get('preloadResampler')!);
    expect(docs.map((d) => d.text).join('\n')).toContain('router.warmup()');
    const members = docComments(exported.get('voxroute')!.get('LoadConfigOptions')!).map((d) => d.where);
    expect(members.some((w) => w.endsWith('(LoadConfigOptions.alias)'))).toBe(true);
  });

  it('cite no internal document, case id or source path', () => {
    const bad: string[] = [];
    for (const symbols of exported.values()) {
      for (const symbol of symbols.values()) {
        for (const doc of docComments(symbol)) {
          for (const re of [...INTERNAL, SOURCE_PATH]) {
            const m = re.exec(doc.text);
            if (m) bad.push(`${doc.where}: ${m[0]}`);
          }
        }
      }
    }
    expect([...new Set(bad)]).toEqual([]);
  });
});

describe('user docs (README.md, docs/*.md)', () => {
  it('cite no internal document, case id or developer note', () => {
    const bad: string[] = [];
    for (const page of pages) {
      text
        .get(page)!
        .split('\n')
        .forEach((line, i) => {
          for (const re of INTERNAL) {
            const m = re.exec(line);
            if (m) bad.push(`${page}:${i + 1}: ${m[0]}`);
          }
        });
    }
    expect(bad).toEqual([]);
  });

  it('name no source path outside the pages and sections for contributors', () => {
    const bad: string[] = [];
    for (const page of pages) {
      for (const { line, text: t } of userLines(page)) {
        const m = SOURCE_PATH.exec(t);
        if (m) bad.push(`${page}:${line}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('import only names that the package exports', () => {
    const imports = pages.flatMap((p) => importsOf(p).map((i) => ({ ...i, page: p })));
    // The check reads the docs' examples: there are many.
    expect(imports.length).toBeGreaterThan(40);
    const missing = imports
      .filter((i) => !exported.get(i.entry as Entry)?.has(i.name))
      .map((i) => `${i.page}:${i.line}: ${i.name} from '${i.entry}'`);
    expect(missing).toEqual([]);
  });

  it('list in the API reference exactly the names each entry exports', () => {
    for (const entry of Object.keys(entries) as Entry[]) {
      const names = [...exported.get(entry)!.keys()].sort();
      expect({ entry, names: apiReference(entry) }).toEqual({ entry, names });
    }
  });
});
