import { parseArgs } from 'node:util';
import { didYouMean } from '../config/did-you-mean.js';
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
      args: withNegativeValues(argv, options),
      options,
      allowPositionals: true,
      strict: true,
    }) as ParsedCommandArgs<O>;
  } catch (error) {
    throw new CliError(`${command}: ${usageProblem(error, options)}. Run 'voxroute ${command} --help'.`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new CliError(
      `${command}: unexpected argument '${parsed.positionals[maxPositionals]}'. Run 'voxroute ${command} --help'.`,
    );
  }
  return parsed;
}

/** A value that starts like a negative number: `-3`, `-0.5`, `-.5`, `-Infinity`. */
const NEGATIVE_NUMBER = /^-(?:\d|\.\d|Infinity$)/;

/**
 * `argv` with `--name VALUE` written `--name=VALUE` where `name` takes a value and VALUE starts
 * like a negative number: parseArgs would take `-3` for an option and refuse it as "ambiguous",
 * while the option's own check says what is wrong with the value (`--max-tokens must be a
 * whole number >= 1, not '-3'`).
 */
function withNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * parseArgs' message in the CLI's words: one line, without its trailing period. An option whose
 * value starts with `-` (parseArgs: "argument is ambiguous") says how to give such a value; an
 * unknown long option names the option it most likely meant.
 */
function usageProblem(error: unknown, options: Options): string {
  const message = (error as Error).message;
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    // `--out`, or `-o, --out <value>` for an option with a short form: name the long one.
    const given = ambiguous[1]!;
    const short = /^-(\w)$/.exec(given)?.[1];
    const long = short ? Object.keys(options).find((name) => options[name]!.short === short) : undefined;
    const option = long ? `--${long}` : (/--[\w-]+/.exec(given)?.[0] ?? given);
    return `${option} needs a value, and the next argument starts with '-'; write ${option}=VALUE for a value starting with '-'`;
  }
  // An unknown option: its name and the option it most likely meant, not parseArgs' hint about
  // positionals that start with '-' (a typo is far more likely than such a positional).
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (unknown) {
    const [, dashes, name] = unknown as unknown as [string, string, string];
    const near = dashes === '--' ? didYouMean(name, Object.keys(options)) : undefined;
    return `unknown option '${dashes}${name}'${near ? ` (did you mean '--${near}'?)` : ''}`;
  }
  return message.split('\n')[0]!.replace(/\.+$/, '');
}

/**
 * A whole number option (digits only, no sign, exponent or hex) from `min` to `max`, or
 * `fallback` when absent. @throws CliError (exit 2) naming the option, the range and the value.
 */
export function intOption(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new CliError(`${command}: --${name} must be a whole number ${range}, not '${value}'`);
  }
  return n;
}
