import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** A source file: its path relative to the repository (`src/...`, forward slashes) and its text. */
interface Source {
  file: string;
  text: string;
}

/** One import of one file: the imported file's path relative to the repository, and the line. */
interface Edge {
  from: string;
  to: string;
  line: number;
}

/**
 * A rule over imports: `forbids(edge)` is true for an import that breaks it. Names are used in
 * failure messages.
 */
interface Rule {
  name: string;
  forbids: (edge: Edge) => boolean;
}

/** `src/providers/<kind>/...` -> kind (`shared` counts as a folder of its own); undefined elsewhere. */
function providerFolder(path: string): string | undefined {
  const match = /^src\/providers\/([^/]+)\//.exec(path);
  return match?.[1];
}

const RULES: readonly Rule[] = [
  {
    name: 'no provider folder imports another provider folder',
    forbids: ({ from, to }) => {
      const own = providerFolder(from);
      const other = providerFolder(to);
      if (own === undefined || other === undefined || own === other) return false;
      return other !== 'shared';
    },
  },
  {
    name: 'providers do not import config',
    forbids: ({ from, to }) => from.startsWith('src/providers/') && to.startsWith('src/config/'),
  },
  {
    name: 'routing does not import pipeline',
    forbids: ({ from, to }) => from.startsWith('src/routing/') && to.startsWith('src/pipeline/'),
  },
  {
    name: 'testing does not import providers',
    forbids: ({ from, to }) => from.startsWith('src/testing/') && to.startsWith('src/providers/'),
  },
];

/** Static imports and re-exports (`from '...'`), side-effect imports and dynamic `import('...')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** Every relative import of `sources`, resolved to a repository path (`.js` read as `.ts`). */
function importEdges(sources: readonly Source[]): Edge[] {
  const edges: Edge[] = [];
  for (const { file, text } of sources) {
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] as string;
      if (!specifier.startsWith('.')) continue;
      const to = join(dirname(file), specifier).split('\\').join('/');
      const line = text.slice(0, match.index).split('\n').length;
      edges.push({ from: file, to: to.replace(/\.js$/, '.ts'), line });
    }
  }
  return edges;
}

/** `file:line -> target` of each import of `sources` that breaks `rule`. */
function violations(sources: readonly Source[], rule: Rule): string[] {
  return importEdges(sources)
    .filter((edge) => rule.forbids(edge))
    .map((edge) => `${edge.from}:${edge.line} -> ${edge.to}`);
}

function sourceFiles(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ file: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }];
  });
}

function rule(name: string): Rule {
  const found = RULES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no rule named ${name}`);
  return found;
}

describe('import boundaries of src/', () => {
  const sources = sourceFiles(join(root, 'src'));

  it('reads the source tree (the scan sees real imports)', () => {
    const edges = importEdges(sources);
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({
      from: 'src/providers/create-adapter.ts',
      to: 'src/providers/types.ts',
      line: expect.any(Number),
    });
  });

  for (const { name } of RULES) {
    it(name, () => {
      expect(violations(sources, rule(name))).toEqual([]);
    });
  }
});

describe('the import scan', () => {
  const fake: Source[] = [
    {
      file: 'src/providers/cartesia/tts.ts',
      text: [
        "import { post } from '../openai/http.js';",
        "import { parseWire } from '../shared/parse-wire.js';",
        "import type { X } from '../../config/index.js';",
        "export { y } from './own.js';",
        "const lazy = () => import('../deepgram/listen.js');",
      ].join('\n'),
    },
    {
      file: 'src/providers/sagemaker/codecs/openai-chat.ts',
      text: [
        "import { ChatStreamAssembler } from '../../openai/chat-stream.js';",
        "import { chatChunkShape } from '../../shared/openai-wire/api-types.js';",
      ].join('\n'),
    },
    { file: 'src/providers/shared/helper.ts', text: "import { a } from '../openai/api-types.js';" },
    { file: 'src/routing/router.ts', text: "import { splitSentences } from '../pipeline/sentences.js';" },
    { file: 'src/testing/mock.ts', text: "import { codec } from '../providers/sagemaker/event-stream.js';" },
    { file: 'src/config/provider-schema.ts', text: "import { s } from '../providers/openai/config.js';" },
  ];

  it('finds static, re-exported and dynamic imports with their lines', () => {
    expect(importEdges(fake.slice(0, 1))).toEqual([
      { from: 'src/providers/cartesia/tts.ts', to: 'src/providers/openai/http.ts', line: 1 },
      { from: 'src/providers/cartesia/tts.ts', to: 'src/providers/shared/parse-wire.ts', line: 2 },
      { from: 'src/providers/cartesia/tts.ts', to: 'src/config/index.ts', line: 3 },
      { from: 'src/providers/cartesia/tts.ts', to: 'src/providers/cartesia/own.ts', line: 4 },
      { from: 'src/providers/cartesia/tts.ts', to: 'src/providers/deepgram/listen.ts', line: 5 },
    ]);
  });

  it('flags a provider importing another provider (a SageMaker codec too), and shared importing a provider; not a provider importing shared', () => {
    expect(violations(fake, rule('no provider folder imports another provider folder'))).toEqual([
      'src/providers/cartesia/tts.ts:1 -> src/providers/openai/http.ts',
      'src/providers/cartesia/tts.ts:5 -> src/providers/deepgram/listen.ts',
      'src/providers/sagemaker/codecs/openai-chat.ts:1 -> src/providers/openai/chat-stream.ts',
      'src/providers/shared/helper.ts:1 -> src/providers/openai/api-types.ts',
    ]);
  });

  it('flags providers importing config but not config importing providers', () => {
    expect(violations(fake, rule('providers do not import config'))).toEqual([
      'src/providers/cartesia/tts.ts:3 -> src/config/index.ts',
    ]);
  });

  it('flags routing importing pipeline and testing importing providers', () => {
    expect(violations(fake, rule('routing does not import pipeline'))).toEqual([
      'src/routing/router.ts:1 -> src/pipeline/sentences.ts',
    ]);
    expect(violations(fake, rule('testing does not import providers'))).toEqual([
      'src/testing/mock.ts:1 -> src/providers/sagemaker/event-stream.ts',
    ]);
  });
});
