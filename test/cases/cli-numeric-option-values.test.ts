/**
 * A bad value of a numeric CLI option (negative, fractional, exponent, hex, out of range, not a
 * number) is a usage error (exit 2) naming the option, its range and the value, never
 * parseArgs' "argument is ambiguous" text; it is checked before any config is read. A text
 * value starting with '-' gets a one-line hint.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_USAGE } from '../../src/cli/run.js';
import { type CliRun, runCliIn } from '../helpers/run-cli.js';

/** Runs the CLI in-process, outside any config's folder. */
const run = (...argv: string[]): Promise<CliRun> => runCliIn('/nonexistent-voxroute-dir', argv);

describe('numeric CLI options say which option and why', () => {
  it.each<[string[], string]>([
    [['chat', 'hi', '--max-tokens', '-3'], "chat: --max-tokens must be a whole number >= 1, not '-3'"],
    [['chat', 'hi', '--max-tokens=-3'], "chat: --max-tokens must be a whole number >= 1, not '-3'"],
    [['chat', 'hi', '--max-tokens', '2.5'], "chat: --max-tokens must be a whole number >= 1, not '2.5'"],
    [['chat', 'hi', '--max-tokens', '1e3'], "chat: --max-tokens must be a whole number >= 1, not '1e3'"],
    [['doctor', '--samples', '-1'], "doctor: --samples must be a whole number >= 1, not '-1'"],
    [['doctor', '--samples', '0x10'], "doctor: --samples must be a whole number >= 1, not '0x10'"],
    [
      ['doctor', '--timeout', '-.5'],
      "doctor: --timeout must be a whole number from 1 to 2147483647, not '-.5'",
    ],
    [
      ['doctor', '--timeout', '99999999999'],
      "doctor: --timeout must be a whole number from 1 to 2147483647, not '99999999999'",
    ],
    [
      ['tts', 'Hello.', '-o', 'x.wav', '--sample-rate', '-8000'],
      "tts: --sample-rate must be a whole number from 8000 to 192000, not '-8000'",
    ],
    [
      ['tts', 'Hello.', '-o', 'x.wav', '--sample-rate', '500000'],
      "tts: --sample-rate must be a whole number from 8000 to 192000, not '500000'",
    ],
    [
      ['tts', 'Hello.', '-o', 'x.wav', '--sample-rate', '-Infinity'],
      "tts: --sample-rate must be a whole number from 8000 to 192000, not '-Infinity'",
    ],
    [
      ['chat', 'hi', '--system', '-be brief'],
      "chat: --system needs a value, and the next argument starts with '-'; write --system=VALUE for a value starting with '-'. Run 'voxroute chat --help'.",
    ],
    [
      ['tts', 'Hello.', '-o', '-x'],
      "tts: --out needs a value, and the next argument starts with '-'; write --out=VALUE for a value starting with '-'. Run 'voxroute tts --help'.",
    ],
  ])('%j', async (argv, message) => {
    const result = await run(...argv);
    expect(result).toEqual({ code: EXIT_USAGE, stdout: '', stderr: `voxroute: ${message}\n` });
    expect(result.stderr).not.toMatch(/ambiguous|\.\./);
  });
});
