/**
 * The docs and the doc comments that ship in dist/*.d.ts speak to users: they name the public
 * API, a docs page or a public source, never a path of the source tree, an internal case id or
 * a document that is not in the package. A relative link of the docs leads to a file the npm
 * package ships (package.json `files`), and its #anchor to a heading there; a link into
 * voxroute's GitHub repository (examples, scripts) names a path that exists. Every name the docs import from `voxroute` (in any
 * code block, checked or not) and every name of the API reference exists, and every export is
 * in the API reference. Export lists and doc comments come from the TypeScript compiler reading
 * the entry files, as the declaration build does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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
  // No public API makes or calls a provider adapter: users reach adapters only through the router.
  /\badapter (?:is )?(?:made|called) directly\b/,
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

/** The links of a page outside code blocks and code spans: target and line. */
function linksOf(page: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  let fenced = false;
  text
    .get(page)!
    .split('\n')
    .forEach((line, i) => {
      if (/^\s*(`{3,}|~{3,})/.test(line)) fenced = !fenced;
      if (fenced) return;
      for (const m of line.replace(/`[^`]*`/g, '``').matchAll(/\]\(([^)\s]+)\)/g))
        out.push({ target: m[1]!, line: i + 1 });
    });
  return out;
}

/**
 * Whether the npm package ships `path` (relative to the root): package.json `files` (plain paths
 * and `!` globs with `**` and `*`), plus what npm always packs.
 */
function shipped(path: string): boolean {
  const { files } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { files: string[] };
  const glob = (g: string) =>
    new RegExp(
      `^${g
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '\0')
        .replace(/\*/g, '[^/]*')
        .replace(/\0/g, '(?:.*/)?')}$`,
    );
  const under = (entry: string) => path === entry || path.startsWith(`${entry}/`);
  if (['package.json', 'README.md', 'LICENSE'].includes(path)) return true;
  return (
    files.some((f) => !f.startsWith('!') && under(f)) &&
    !files.some((f) => f.startsWith('!') && glob(f.slice(1)).test(path))
  );
}

/** GitHub's anchors of a markdown file's headings (lower case, punctuation dropped, spaces to -). */
function anchorsOf(file: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const slug = m[1]!
      .trim()
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

const REPOSITORY = 'https://github.com/voxroute/voxroute/';

/** What is wrong with one link of `page`, or undefined. */
function brokenLink(page: string, target: string): string | undefined {
  if (target.startsWith(REPOSITORY)) {
    const m = /^(?:blob|tree)\/main\/([^#?]+)(?:#(.*))?$/.exec(target.slice(REPOSITORY.length));
    if (!m)
      return target.slice(REPOSITORY.length) === '' || target.endsWith('#readme')
        ? undefined
        : 'not a blob/main or tree/main link';
    const file = join(root, m[1]!);
    if (!existsSync(file)) return `no ${m[1]} in the repository`;
    if (m[2] && file.endsWith('.md') && !anchorsOf(file).has(m[2])) return `no heading #${m[2]} in ${m[1]}`;
    return undefined;
  }
  if (/^[a-z][a-z+.-]*:/i.test(target)) return undefined;
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURI(path));
  const rel = relative(root, file);
  if (rel.startsWith('..') || !shipped(rel))
    return `${rel} is not in the npm package (link to ${REPOSITORY}...)`;
  if (!rel.startsWith('dist/') && !existsSync(file)) return `no file ${rel}`;
  if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
    return `no heading #${anchor} in ${rel}`;
  return undefined;
}

describe('links of the docs (README.md, docs/*.md)', () => {
  it('finds the links and tells the package from the repository (the check can fail)', () => {
    const all = pages.flatMap((p) => linksOf(p));
    expect(all.length).toBeGreaterThan(300);
    expect(brokenLink('docs/testing.md', '../examples/consumer-ci')).toBe(
      `examples/consumer-ci is not in the npm package (link to ${REPOSITORY}...)`,
    );
    expect(brokenLink('docs/config.md', 'errors.md#no-such-heading')).toBe(
      'no heading #no-such-heading in docs/errors.md',
    );
    expect(brokenLink('docs/config.md', '../src/index.test.ts')).toMatch(
      /^src\/index\.test\.ts is not in the npm package/,
    );
    expect(brokenLink('docs/config.md', '../src/index.ts')).toBeUndefined();
    expect(brokenLink('docs/config.md', '../src/routing/router.test.ts')).toMatch(
      /is not in the npm package/,
    );
    expect(brokenLink('docs/config.md', '../src/routing/router.ts')).toBeUndefined();
    expect(brokenLink('README.md', `${REPOSITORY}blob/main/docs/config.md#no-such-heading`)).toBe(
      'no heading #no-such-heading in docs/config.md',
    );
    expect(brokenLink('docs/config.md', `${REPOSITORY}blob/main/examples/nothing.ts`)).toBe(
      'no examples/nothing.ts in the repository',
    );
  });

  it('lead to files the npm package ships, headings that exist, or paths of the repository that exist', () => {
    const bad: string[] = [];
    for (const page of pages) {
      for (const { target, line } of linksOf(page)) {
        const problem = brokenLink(page, target);
        if (problem) bad.push(`${page}:${line}: ${target}: ${problem}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
