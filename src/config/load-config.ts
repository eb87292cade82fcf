import { extname, resolve } from 'node:path';
import type { SecretEnv } from '../config-fields/resolve-secrets.js';
import { ConfigError } from '../errors/config-error.js';
import type { ConfigFactory } from './define-config.js';
import { loadModuleDefault } from './load-module.js';
import { parseConfig } from './parse-config.js';
import { parseJsonConfig, parseYamlConfig } from './parse-data.js';
import { quoteThrown } from './quote-thrown.js';
import type { ResolvedConfig } from './types.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * Where `{ env: 'NAME' }` secrets and URLs are read from, and what a config module whose
   * default export is a function (see ConfigFactory) is called with. Default `process.env`.
   */
  env?: SecretEnv | undefined;
  /** Folder a relative `path` is resolved from. Default `process.cwd()`. */
  cwd?: string | undefined;
  /**
   * For TypeScript configs: bare import specifiers mapped to paths (jiti's `alias`), e.g.
   * `{ '@shared': '/app/shared/index.ts' }`. Default none: imports resolve from the config file's folder as Node would.
   */
  alias?: Record<string, string> | undefined;
}

/** The file extensions loadConfig reads. */
export const CONFIG_EXTENSIONS = [
  '.ts',
  '.mts',
  '.cts',
  '.mjs',
  '.js',
  '.cjs',
  '.json',
  '.yaml',
  '.yml',
] as const;

/**
 * Reads, validates and resolves a router config file: `.ts`/`.mts`/`.cts` (through jiti,
 * loaded lazily) and `.mjs`/`.js`/`.cjs` (Node's import) by their default export (a config,
 * or a ConfigFactory called with `{ env }`), `.json`,
 * and `.yaml`/`.yml` (the `yaml` package, loaded lazily). A relative `path` resolves from
 * `options.cwd`, default `process.cwd()`. Then as parseConfig. Each call re-reads a
 * TypeScript config; Node caches a JavaScript one for the life of the process.
 *
 * @throws ConfigError whose message names the file's absolute path (its `source`): when the
 *   file is missing or unreadable, has an unsupported extension, does not parse or compile,
 *   has no default export, the module or its config function throws, or the config in it is
 *   invalid (every issue with its path). What the config's own code threw is quoted with the
 *   values of secret-named variables (of `process.env` and `options.env`) and anything shaped
 *   like a key as `[redacted]`, in the message and in the `cause`.
 * @throws TypeError (a rejected promise) when `path` is not a non-empty string.
 */
export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  if (typeof path !== 'string' || path === '')
    throw new TypeError(
      `loadConfig: path must be the config file's path, e.g. 'voxroute.config.ts', got ${path === '' ? 'an empty string' : path === null ? 'null' : typeof path}`,
    );
  const file = resolve(options.cwd ?? process.cwd(), path);
  const raw = await readConfig(file, options);
  return parseConfig(raw, { source: file, ...(options.env ? { env: options.env } : {}) });
}

async function readConfig(file: string, options: LoadConfigOptions): Promise<unknown> {
  const ext = extname(file).toLowerCase();
  if (!(CONFIG_EXTENSIONS as readonly string[]).includes(ext)) {
    const message = `unsupported file extension "${ext}": use one of ${CONFIG_EXTENSIONS.join(', ')}`;
    throw new ConfigError([{ path: [], message }], { source: file });
  }
  await assertFile(file);
  switch (ext) {
    case '.ts':
    case '.mts':
    case '.cts':
      return callFactory(await loadModuleDefault(file, 'jiti', options.alias), file, options);
    case '.mjs':
    case '.js':
    case '.cjs':
      return callFactory(await loadModuleDefault(file, 'native'), file, options);
    case '.json':
      return parseJsonConfig(await readText(file), file);
    default:
      return parseYamlConfig(await readText(file), file);
  }
}

/** A module's default export, or what it returns when it is a ConfigFactory. */
async function callFactory(value: unknown, file: string, options: LoadConfigOptions): Promise<unknown> {
  if (typeof value !== 'function') return value;
  try {
    return await (value as ConfigFactory)({ env: options.env ?? process.env });
  } catch (thrown) {
    // Its message may quote a key (from `env` or a vault): redacted as a module's own error is.
    const { cause, text } = quoteThrown(thrown, { envs: [options.env] });
    throw new ConfigError([{ path: [], message: `the config function threw: ${text}` }], {
      source: file,
      cause,
    });
  }
}

async function assertFile(file: string): Promise<void> {
  let isFile: boolean;
  try {
    // node:fs/promises is loaded here, not at import: importing voxroute stays fast.
    const { stat } = await import('node:fs/promises');
    isFile = (await stat(file)).isFile();
  } catch (error) {
    throw fileError(file, error);
  }
  if (!isFile) throw new ConfigError([{ path: [], message: 'not a file' }], { source: file });
}

async function readText(file: string): Promise<string> {
  try {
    const { readFile } = await import('node:fs/promises');
    return await readFile(file, 'utf8');
  } catch (error) {
    throw fileError(file, error);
  }
}

function fileError(file: string, error: unknown): ConfigError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = code === 'ENOENT' ? 'file not found' : `cannot read the file (${String(code ?? error)})`;
  return new ConfigError([{ path: [], message }], { source: file, cause: error });
}
