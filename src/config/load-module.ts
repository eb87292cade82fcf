import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors/config-error.js';
import { quoteThrown } from './quote-thrown.js';

/** How a config module is loaded: `jiti` transpiles TypeScript, `native` is Node's import(). */
export type ModuleLoader = 'jiti' | 'native';

/**
 * Imports the config module at absolute path `file` and returns its default export.
 * TypeScript (`loader: 'jiti'`) goes through jiti, itself imported only now so that
 * importing voxroute stays fast; jiti resolves the file's own imports from the file's
 * folder, with `alias` mapping bare specifiers to paths (as jiti's `alias` option does).
 * JavaScript (`'native'`) goes through Node's import() of the file URL; a CommonJS
 * `exports.default` with `__esModule` is unwrapped.
 *
 * @throws ConfigError (source `file`) when the module throws or fails to compile (its first
 *   message line, the original error as `cause`), or has no default export.
 */
export async function loadModuleDefault(
  file: string,
  loader: ModuleLoader,
  alias?: Record<string, string>,
): Promise<unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = loader === 'jiti' ? await importWithJiti(file, alias) : await import(pathToFileURL(file).href);
  } catch (thrown) {
    // The module's own message may hold a key (its env, a literal): never in a ConfigError.
    const { cause, text } = quoteThrown(thrown);
    throw new ConfigError([{ path: [], message: `could not load the module: ${text}` }], {
      source: file,
      cause,
    });
  }
  if (!('default' in mod)) {
    throw new ConfigError(
      [{ path: [], message: 'the module has no default export: use `export default defineConfig({ ... })`' }],
      { source: file },
    );
  }
  const value = mod.default;
  if (isCommonJsInterop(value)) return value.default;
  return value;
}

async function importWithJiti(file: string, alias: Record<string, string> | undefined) {
  const { createJiti } = await import('jiti');
  // Based on the config file's own URL (not this module's) so that it also works from the
  // CommonJS build, where import.meta.url is not available.
  const jiti = createJiti(pathToFileURL(file).href, { moduleCache: false, ...(alias ? { alias } : {}) });
  return jiti.import<Record<string, unknown>>(file);
}

function isCommonJsInterop(value: unknown): value is { default: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { __esModule?: unknown }).__esModule === true &&
    'default' in value
  );
}
