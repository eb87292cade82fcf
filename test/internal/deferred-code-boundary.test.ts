import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT as root } from '../helpers/import-probe.js';

// What `import('voxroute')` compiles is the static import graph of src/index.ts, as the bundler
// follows it: every `import`/`export ... from` that is not type-only, re-exports of a barrel
// included (esbuild brings in each file a barrel re-exports from, used or not). The code a router
// loads in the background (src/routing/deferred-code.ts) must stay out of it, and reach the
// package through one dynamic import(): each further one would cut the code it shares with the
// package entry into more files, which the import reads one by one.

const STATEMENT = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*'([^']+)'|^\s*import\s+'([^']+)'/gm;
/** A dynamic import() of a relative path (not a type's `typeof import('...')`). */
const DYNAMIC = /(?<!typeof\s+)\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** The files `file` (a path from the root) imports statically for their values. */
function staticImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(STATEMENT)) {
    const specifier = (match[4] ?? match[5]) as string;
    if (!specifier.startsWith('.') || match[2]) continue;
    const braces = /^\{([\s\S]*)\}$/.exec((match[3] ?? '').trim());
    const names = braces?.[1]
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names && names.length > 0 && names.every((name) => name.startsWith('type '))) continue;
    out.push(join(dirname(file), specifier).split('\\').join('/').replace(/\.js$/, '.ts'));
  }
  return out;
}

/** Every file reached from `entry` through static value imports, `entry` included. */
function staticGraph(entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const target of staticImports(file)) {
      if (seen.has(target)) continue;
      if (!existsSync(join(root, target))) throw new Error(`${file} imports ${target}, which does not exist`);
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** `file: specifier` of each dynamic import() of one of the package's own files in `files`. */
function dynamicImports(files: Iterable<string>): string[] {
  return [...files].flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(DYNAMIC)].map((m) => `${file}: ${m[1]}`),
  );
}

describe('the code a router loads in the background stays off the package import', () => {
  const entry = staticGraph('src/index.ts');
  const deferred = staticGraph('src/routing/deferred-code.ts');

  it('the scan follows the real graph (controls)', () => {
    expect(entry.has('src/routing/router.ts')).toBe(true);
    expect(entry.has('src/transport/lazy-transports.ts')).toBe(true);
    expect(deferred.has('src/transport/websocket-session.ts')).toBe(true);
    expect(deferred.has('src/providers/openai/from-config.ts')).toBe(true);
  });

  it('src/index.ts reaches none of the adapters, transports, fleet-shared health or resampler thread', () => {
    const background = [
      'src/routing/deferred-code.ts',
      'src/providers/adapters.ts',
      'src/transport/http-transport.ts',
      'src/transport/exchange.ts',
      'src/transport/websocket.ts',
      'src/transport/websocket-session.ts',
      'src/fleet/fleet-health.ts',
      'src/audio/resample-thread.ts',
      'src/audio/resample-worker-source.ts',
      'src/providers/sagemaker/bidi/http2-stream.ts',
      ...[...deferred].filter((file) => file.endsWith('/from-config.ts')),
    ];
    expect(background.filter((file) => entry.has(file))).toEqual([]);
  });

  it('one dynamic import() of the package own code on the way: the one that loads deferred-code.ts', () => {
    expect(dynamicImports(new Set([...entry, ...deferred]))).toEqual([
      'src/routing/load-deferred-code.ts: ./deferred-code.js',
    ]);
  });
});
