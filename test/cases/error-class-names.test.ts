/**
 * Every error class keeps its own name once bundled: `err.name`, `err.constructor.name` and the
 * class's `name` read 'RequestError', 'ProviderError', 'TimeoutError'... in the source, in a
 * bundle of the package (esbuild, as tsup builds dist/, where a class that refers to itself is
 * emitted as `_RequestError`), in a minified bundle (an app's bundler renames every class), and
 * in dist/ when a build of the current sources is there. An error the router rebuilds (a
 * RequestError after output) keeps its class.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as source from '../../src/index.js';

type Package = typeof source;

/** Each error class, with how to make one. */
const MAKERS: Array<[string, (p: Package) => Error]> = [
  ['VoxrouteError', (p) => new p.VoxrouteError('base')],
  ['RequestError', (p) => new p.RequestError('format.sampleRate', 'must be a positive integer')],
  ['ProviderError', (p) => new p.ProviderError('HTTP 503', { provider: 'a', status: 503, retryable: true })],
  ['TimeoutError', (p) => new p.TimeoutError('idle', 5000, { provider: 'a' })],
  ['ProtocolError', (p) => new p.ProtocolError('bad frame', { provider: 'a' })],
  ['MidStreamError', (p) => new p.MidStreamError('cut', { provider: 'a', partialText: 'Hi' })],
  ['AllProvidersFailedError', (p) => new p.AllProvidersFailedError('chat', [])],
  ['ConfigError', (p) => new p.ConfigError([{ path: ['routes'], message: 'missing' }])],
  ['AudioConversionError', (p) => new p.AudioConversionError('worker exited')],
  ['AbortError', (p) => new p.AbortError()],
];

/** Asserts the names of every error class of `p`, and of errors it makes and rebuilds. */
async function expectNames(p: Package): Promise<void> {
  for (const [name, make] of MAKERS) {
    const error = make(p);
    const Class = (p as unknown as Record<string, new (...args: never[]) => Error>)[name]!;
    expect([name, Class.name]).toEqual([name, name]);
    expect([name, error.name, error.constructor.name]).toEqual([name, name, name]);
    expect(error).toBeInstanceOf(Class);
    expect(String(error.stack).split('\n')[0]).toBe(`${name}: ${error.message.split('\n')[0]}`);
  }
  // Rebuilt with partialOutput: the same class.
  const later = new p.RequestError('text', 'the text stream failed').afterOutput();
  expect([later.name, later.constructor.name, later.partialOutput]).toEqual([
    'RequestError',
    'RequestError',
    true,
  ]);
  expect(later).toBeInstanceOf(p.RequestError);
  // Thrown by the router itself: a request with no messages.
  const router = p.createRouter({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['a'] } },
  });
  try {
    let thrown: unknown;
    try {
      for await (const _ of router.chat({ model: 'fast', messages: 'Hi' as never })) {
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(p.RequestError);
    expect([(thrown as Error).name, (thrown as Error).constructor.name]).toEqual([
      'RequestError',
      'RequestError',
    ]);
  } finally {
    await router.close();
  }
}

const root = join(import.meta.dirname, '..', '..');
let dir: string;
beforeAll(() => {
  // Inside the repository (.scratch is git-ignored), so the bundles' imports of the package's
  // dependencies resolve to its node_modules.
  mkdirSync(join(root, '.scratch'), { recursive: true });
  dir = mkdtempSync(join(root, '.scratch', 'error-names-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Bundles src/index.ts into `dir` and imports it: ESM for Node 20 with the dependencies left as
 * imports, as tsup builds dist/.
 */
async function bundle(file: string, minify: boolean): Promise<Package> {
  const outfile = join(dir, file);
  await build({
    entryPoints: [join(root, 'src', 'index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    minify,
    outfile,
    logLevel: 'silent',
  });
  return (await import(pathToFileURL(outfile).href)) as Package;
}

/** The newest modification time of any file under `path`, in ms. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const distEntry = join(root, 'dist', 'index.js');
/** dist/ holds a build of the current sources. */
const freshDist = existsSync(distEntry) && statSync(distEntry).mtimeMs >= newest(join(root, 'src'));

describe('error class names', () => {
  it('in the source', async () => {
    await expectNames(source);
  });

  it('in a bundle of the package', { timeout: 60_000 }, async () => {
    await expectNames(await bundle('plain.mjs', false));
  });

  it('in a minified bundle (every class renamed)', { timeout: 60_000 }, async () => {
    await expectNames(await bundle('minified.mjs', true));
  });

  it.skipIf(!freshDist)('in dist/', async () => {
    await expectNames((await import(pathToFileURL(distEntry).href)) as Package);
  });
});
