import { describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE, runCli } from '../../src/cli/run.js';

const HELP = `voxroute 9.8.7: route streaming speech-to-text, chat and text-to-speech across providers

Usage: voxroute <command> [options]

Commands (not available yet; they come in a later release):
  doctor  check the config, credentials and reachability of each provider
  tts     speak text through the router and write the audio to a file
  stt     transcribe an audio file through the router
  chat    stream a chat reply through the router
  bench   measure the router's overhead and each provider's latency
  demo    run a voice turn (stt -> chat -> tts) against local mock providers

Options:
  -h, --help     show this help
  -v, --version  print the version
`;

/** Runs the CLI in-process with version 9.8.7 and collects what it writes. */
function run(...argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runCli(argv, {
    version: '9.8.7',
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

describe('runCli', () => {
  it('exit codes are 0 for success, 1 for a command not available yet, 2 for a usage error', () => {
    expect([EXIT_OK, EXIT_UNAVAILABLE, EXIT_USAGE]).toEqual([0, 1, 2]);
  });

  it.each([[[]], [['--help']], [['-h']], [['help']], [['--help', 'tts']]])(
    'prints the help listing every command for %j',
    (argv) => {
      expect(run(...argv)).toEqual({ code: 0, stdout: HELP, stderr: '' });
    },
  );

  it.each([['--version'], ['-v']])('prints only the version for %s', (flag) => {
    expect(run(flag)).toEqual({ code: 0, stdout: '9.8.7\n', stderr: '' });
  });

  it.each([['doctor'], ['tts'], ['stt'], ['chat'], ['bench'], ['demo']])(
    'answers the coming command %s with "not available yet" and exit 1',
    (name) => {
      expect(run(name, '--anything')).toEqual({
        code: 1,
        stdout: '',
        stderr: `voxroute: '${name}' is not available yet in voxroute 9.8.7.\n`,
      });
    },
  );

  it('rejects an unknown command with exit 2 and a pointer to --help', () => {
    expect(run('speak')).toEqual({
      code: 2,
      stdout: '',
      stderr: "voxroute: unknown command 'speak'. Run 'voxroute --help' to list the commands.\n",
    });
  });

  it('rejects an unknown option with exit 2, naming it an option', () => {
    expect(run('--verbose')).toEqual({
      code: 2,
      stdout: '',
      stderr: "voxroute: unknown option '--verbose'. Run 'voxroute --help' to list the commands.\n",
    });
  });

  it('treats a differently cased command as unknown', () => {
    expect(run('TTS').code).toBe(2);
  });
});
