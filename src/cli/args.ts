import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';

/** Options as node:util parseArgs takes them (the subset the CLI uses). */
export type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** What {@link parseCommandArgs} returns: each option's value (absent when not given), and the positionals. */
export interface ParsedCommandArgs<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
}

/** The `--config`/`-c` option every command that reads a config takes. */
export const CONFIG_OPTION = { config: { type: 'string', short: 'c' } } as const satisfies Options;

/**
 * Parses a command's arguments with node:util parseArgs (strict: an unknown option or a
 * missing value is a usage error naming it).
 *
 * @throws CliError (exit 2) for an unknown option, a missing value or too many positionals.
 */
export function parseCommandArgs<O extends Options>(
  command: string,
  argv: readonly string[],
  options: O,
  maxPositionals: number,
): ParsedCommandArgs<O> {
  let parsed: ParsedCommandArgs<O>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    }) as ParsedCommandArgs<O>;
  } catch (error) {
    throw new CliError(`${command}: ${(error as Error).message}. Run 'voxroute ${command} --help'.`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new CliError(
      `${command}: unexpected argument '${parsed.positionals[maxPositionals]}'. Run 'voxroute ${command} --help'.`,
    );
  }
  return parsed;
}

/** A whole number option >= `min`, or `fallback` when absent. @throws CliError (exit 2). */
export function intOption(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  min = 1,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new CliError(`${command}: --${name} must be a whole number >= ${min}, not '${value}'`);
  }
  return n;
}
