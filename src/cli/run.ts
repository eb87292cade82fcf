import { CLI_COMMANDS } from './commands.js';
import { formatHelp } from './help.js';

/** Where the CLI writes and what it reports as its version; injected so tests run it in-process. */
export interface CliContext {
  /** The package version, e.g. `'0.1.0'`. */
  readonly version: string;
  /** Writes text to standard output, as given (the CLI supplies the newlines). */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error, as given (the CLI supplies the newlines). */
  readonly stderr: (text: string) => void;
}

/** Exit code of a run that did what was asked (help, version). */
export const EXIT_OK = 0;
/** Exit code of a known command that this release does not implement yet. */
export const EXIT_UNAVAILABLE = 1;
/** Exit code of a usage error: an unknown command or option. */
export const EXIT_USAGE = 2;

/**
 * Runs the `voxroute` CLI on its arguments and returns the process exit code; never throws and
 * never calls `process.exit`.
 *
 * - no arguments, `-h`, `--help` or `help`: the help text on stdout, exit 0;
 * - `-v` or `--version`: the version and a newline on stdout, exit 0;
 * - a command of {@link CLI_COMMANDS}: a "not available yet" line on stderr, exit 1;
 * - anything else: an "unknown command/option" line and a pointer to `--help` on stderr, exit 2.
 *
 * Only the first argument is looked at.
 *
 * @param argv The arguments after the program name (`process.argv.slice(2)`).
 */
export function runCli(argv: readonly string[], ctx: CliContext): number {
  const first = argv[0];
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    ctx.stdout(formatHelp(ctx.version));
    return EXIT_OK;
  }
  if (first === '-v' || first === '--version') {
    ctx.stdout(`${ctx.version}\n`);
    return EXIT_OK;
  }
  if (CLI_COMMANDS.some((c) => c.name === first)) {
    ctx.stderr(`voxroute: '${first}' is not available yet in voxroute ${ctx.version}.\n`);
    return EXIT_UNAVAILABLE;
  }
  const kind = first.startsWith('-') ? 'option' : 'command';
  ctx.stderr(`voxroute: unknown ${kind} '${first}'. Run 'voxroute --help' to list the commands.\n`);
  return EXIT_USAGE;
}
