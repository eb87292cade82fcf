// Type-checks every ```ts code block of README.md and docs/*.md against the sources, as a user
// would write it: `voxroute`, `voxroute/testing`, `voxroute/ai-sdk` and `voxroute/livekit`
// resolve to src/ through tsconfig.json's paths. Each block is its own ES module. A block that is
// a fragment on purpose is fenced ```ts nocheck and skipped; a block of entries of a config's
// `providers` map is fenced ```ts providers and checked as the body of a
// `Record<string, ProviderConfig>` literal.
//
// Usage: node scripts/check-doc-blocks.mjs [--keep]
// The blocks are written to .scratch/doc-blocks/ (gitignored) and removed afterwards unless
// --keep is given. Errors are reported at their line in the markdown file. Exits 1 on any error.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, '.scratch', 'doc-blocks');
const keep = process.argv.includes('--keep');

// Pages left out of the check, each with the reason. None today: docs/testing.md joined once its
// blocks carried their imports (issue 16).
const skippedPages = new Set();

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && !skippedPages.has(`docs/${f}`))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The ts blocks of one markdown file: code, the 1-based line of its first code line, and flags. */
function blocksOf(page) {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks = [];
  let open;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (open === undefined) {
      if (fence) {
        const info = fence[3].trim().split(/\s+/);
        open = {
          indent: fence[1].length,
          marker: fence[2],
          lang: info[0],
          flags: info.slice(1),
          start: i + 2,
          code: [],
        };
      }
    } else if (fence?.[2].startsWith(open.marker) && fence[3].trim() === '') {
      if (['ts', 'typescript'].includes(open.lang)) blocks.push(open);
      open = undefined;
    } else {
      open.code.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
    }
  }
  if (open !== undefined)
    throw new Error(`${page}: code block opened at line ${open.start - 1} is never closed`);
  return blocks;
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const origin = new Map(); // file name -> { page, start }
let skipped = 0;
for (const page of pages) {
  for (const block of blocksOf(page)) {
    if (block.flags.includes('nocheck')) {
      skipped++;
      continue;
    }
    const name = `${page.replace(/[/.]/g, '_')}_L${block.start}.ts`;
    const prefix = block.flags.includes('providers')
      ? [
          "import type { ProviderConfig } from 'voxroute';",
          'export const providers: Record<string, ProviderConfig> = {',
        ]
      : [];
    const suffix = block.flags.includes('providers') ? ['};'] : [];
    origin.set(name, { page, start: block.start - prefix.length });
    // `export {}` keeps every block its own module, so blocks may reuse top-level names.
    writeFileSync(join(outDir, name), `${[...prefix, ...block.code, ...suffix].join('\n')}\nexport {};\n`);
  }
}
writeFileSync(join(outDir, 'package.json'), '{ "type": "module", "private": true }\n');
writeFileSync(
  join(outDir, 'tsconfig.json'),
  `${JSON.stringify(
    {
      extends: '../../tsconfig.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false, noUnusedParameters: false },
      // src's ambient declarations (e.g. for untyped wasm modules) that the sources rely on.
      include: ['*.ts', '../../src/**/*.d.ts'],
    },
    null,
    2,
  )}\n`,
);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', join(outDir, 'tsconfig.json'), '--pretty', 'false'], {
  cwd: root,
  encoding: 'utf8',
});
const output = `${run.stdout}${run.stderr}`;
// tsc prints `.scratch/doc-blocks/<name>.ts(line,col): error ...`; point at the markdown instead.
const mapped = output.replace(
  /^(?:\.scratch\/doc-blocks\/)?([\w.-]+\.ts)\((\d+),(\d+)\)/gm,
  (all, file, line, col) => {
    const at = origin.get(file);
    return at ? `${at.page}:${at.start + Number(line) - 1}:${col}` : all;
  },
);
if (!keep) rmSync(outDir, { recursive: true, force: true });

const checked = origin.size;
if (run.status !== 0) {
  process.stdout.write(mapped);
  console.error(`check-doc-blocks: type errors in the ts blocks (${checked} checked, ${skipped} nocheck)`);
  process.exit(1);
}
console.log(
  `check-doc-blocks: ${checked} ts blocks type-check (${skipped} marked nocheck; pages left out: ${[...skippedPages].join(', ') || 'none'})`,
);
