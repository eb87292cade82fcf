import { CliError } from './cli-error.js';
import { CLI_COMMANDS } from './commands.js';
import type { CliContext } from './context.js';
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { formatCommandHelp, formatHelp } from './help.js';

export type { CliContext } from './context.js';
export { EXIT_CONFIG, EXIT_FAILURE, EXIT_IO, EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE } from './exit-codes.js';

/**
 * Runs the `voxroute` CLI on its arguments and resolves to the process exit code; never
 * rejects and never calls `process.exit`.
 *
 * - no arguments, `-h`, `--help` or `help`: the help text on stdout, exit 0;
 * - `-v` or `--version`: the version and a newline on stdout, exit 0;
 * - `<command> --help`: that command's usage on stdout, exit 0;
 * - a command of {@link CLI_COMMANDS}: runs it; an error is one `voxroute: ...` message on
 *   stderr and its exit code (see exit-codes.ts): a ConfigError exits 3 with every issue, a
 *   RequestError (a bad argument such as `--language`) exits 2, another voxroute error (all
 *   providers failed) exits 1;
 * - anything else: an "unknown command/option" line and a pointer to `--help` on stderr, exit 2.
 *
 * @param argv The arguments after the program name (`process.argv.slice(2)`).
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const first = argv[0];
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    ctx.stdout(formatHelp(ctx.version));
    return EXIT_OK;
  }
  if (first === '-v' || first === '--version') {
    ctx.stdout(`${ctx.version}\n`);
    return EXIT_OK;
  }
  const command = CLI_COMMANDS.find((c) => c.name === first);
  if (!command) {
    const kind = first.startsWith('-') ? 'option' : 'command';
    ctx.stderr(`voxroute: unknown ${kind} '${first}'. Run 'voxroute --help' to list the commands.\n`);
    return EXIT_USAGE;
  }
  const rest = argv.slice(1);
  // `bench` passes its arguments on to the benchmark: only `bench --help` itself is its help.
  const wantsHelp =
    command.name === 'bench'
      ? rest[0] === '--help' || rest[0] === '-h'
      : rest.includes('--help') || rest.includes('-h');
  if (wantsHelp) {
    ctx.stdout(formatCommandHelp(command));
    return EXIT_OK;
  }
  try {
    return await command.run(rest, ctx);
  } catch (error) {
    return report(error, command.name, ctx);
  }
}

/**
 * Writes an error of `command` to stderr and returns its exit code. A RequestError is a usage
 * error, so it reads like the others: `voxroute: <command>: <message>`.
 */
function report(error: unknown, command: string, ctx: CliContext): number {
  if (error instanceof CliError) {
    ctx.stderr(`voxroute: ${error.message}\n`);
    return error.exitCode;
  }
  const e = error as { name?: unknown; code?: unknown; message?: unknown } | null;
  if (e?.code === 'CONFIG_INVALID') {
    ctx.stderr(`voxroute: ${String(e.message)}\n`);
    return EXIT_CONFIG;
  }
  if (e?.code === 'REQUEST_INVALID') {
    // A RequestError: the request the command built from its arguments is bad (e.g. --language).
    ctx.stderr(`voxroute: ${command}: ${String(e.message)}\n`);
    return EXIT_USAGE;
  }
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  ctx.stderr(`voxroute: ${name}: ${String(e?.message ?? error)}\n`);
  return EXIT_FAILURE;
}
