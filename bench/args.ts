/**
 * The command line of a bench script: its options parsed as node:util `parseArgs` does (strict,
 * no positionals), plus `--help` / `-h`. One place, so that every bench script answers `--help`
 * and reports a bad option in one line rather than a stack trace.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values of `options`, typed as `parseArgs` types them. */
export type BenchValues<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>['values'];

/**
 * Parses `process.argv` for the bench script at `scriptUrl` (its `import.meta.url`):
 * - `--help` / `-h`: prints {@link benchUsage} on stdout and exits 0;
 * - an unknown option, a missing value or a stray argument: prints the error and the usage on
 *   stderr and exits 2;
 * - else returns the values, with the defaults of `options`.
 */
export function benchArgs<const O extends Options>(scriptUrl: string, options: O): BenchValues<O> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error;
    process.stderr.write(`${(error as Error).message}\n\n${benchUsage(scriptUrl, options)}`);
    process.exit(2);
  }
  if (values.help === true) {
    process.stdout.write(benchUsage(scriptUrl, options));
    process.exit(0);
  }
  delete values.help;
  return values as BenchValues<O>;
}

/**
 * The usage text of a bench script: how to run it, its leading doc comment (what it measures,
 * its options explained, its targets), then every option it takes with its default.
 */
export function benchUsage(scriptUrl: string, options: Options): string {
  const path = fileURLToPath(scriptUrl);
  const shown = relative(process.cwd(), path) || path;
  const about = /^\s*\/\*\*([\s\S]*?)\*\//.exec(readFileSync(path, 'utf8'))?.[1] ?? '';
  const lines = about
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim();
  const list = Object.entries(options).map(([name, option]) => {
    const value = option.type === 'string' ? ' <value>' : '';
    const many = option.multiple ? ' (repeatable)' : '';
    const fallback =
      option.default === undefined || option.default === false
        ? ''
        : ` (default ${JSON.stringify(option.default)})`;
    return `  --${name}${value}${many}${fallback}`;
  });
  return [
    `Usage: node scripts/run-ts.mjs ${shown} [options]`,
    '',
    ...(lines ? [lines, ''] : []),
    'Options:',
    ...list,
    '  --help, -h  print this text',
    '',
  ].join('\n');
}
