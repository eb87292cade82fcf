import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ResolvedConfig } from 'voxroute';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';
import { EXIT_CONFIG } from './exit-codes.js';

/**
 * The extensions of the config files looked for in the working folder, in order, when no
 * config is named: every extension voxroute's loadConfig reads, in the order docs/config.md
 * lists them.
 */
const DEFAULT_CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'mjs', 'js', 'cjs', 'json', 'yaml', 'yml'] as const;

/** The file names looked for in the working folder, in order, when no config is named. */
export const DEFAULT_CONFIG_FILES = DEFAULT_CONFIG_EXTENSIONS.map((ext) => `voxroute.config.${ext}`);

/** `voxroute.config.{ts,mts,...}`: {@link DEFAULT_CONFIG_FILES} in one word, for help and messages. */
export const DEFAULT_CONFIG_PATTERN = `voxroute.config.{${DEFAULT_CONFIG_EXTENSIONS.join(',')}}`;

/**
 * The config file to use: `--config`, else `$VOXROUTE_CONFIG`, else the first of
 * {@link DEFAULT_CONFIG_FILES} in the working folder.
 *
 * @throws CliError (exit 3) when none is named and none is found.
 */
export function configPath(ctx: CliContext, option: string | undefined): string {
  const cwd = ctx.cwd ?? process.cwd();
  const named = option ?? (ctx.env ?? process.env).VOXROUTE_CONFIG;
  if (named) return resolve(cwd, named);
  for (const name of DEFAULT_CONFIG_FILES) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  throw new CliError(
    `no config file: pass --config FILE, set VOXROUTE_CONFIG, or add ${DEFAULT_CONFIG_PATTERN} to ${cwd}`,
    EXIT_CONFIG,
  );
}

/**
 * Loads and validates the config with voxroute's loadConfig (a ConfigError, exit 3, lists
 * every problem). `env` overrides the context's environment (the mock command fills in
 * secrets it does not need).
 */
export async function loadCliConfig(
  ctx: CliContext,
  option: string | undefined,
  env?: Record<string, string | undefined>,
): Promise<{ file: string; config: ResolvedConfig }> {
  const file = configPath(ctx, option);
  const { loadConfig } = await import('voxroute');
  const config = await loadConfig(file, { env: env ?? ctx.env ?? process.env });
  return { file, config };
}
