import { EXIT_USAGE } from './exit-codes.js';

/** An error the CLI reports as one line on stderr (`voxroute: <message>`) and exits with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** The process exit code, see exit-codes.ts. */
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.exitCode = exitCode;
  }
}
