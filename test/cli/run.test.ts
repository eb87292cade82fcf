import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPath, DEFAULT_CONFIG_FILES } from '../../src/cli/config-file.js';
import {
  EXIT_CONFIG,
  EXIT_FAILURE,
  EXIT_IO,
  EXIT_OK,
  EXIT_UNAVAILABLE,
  EXIT_USAGE,
  runCli,
} from '../../src/cli/run.js';
import { deferred } from '../helpers/deferred.js';
import { type CliRun, runCliIn } from '../helpers/run-cli.js';
import { wavHeaderByHand } from '../helpers/wav-header.js';

const HELP = `voxroute 9.8.7: route streaming speech-to-text, chat and text-to-speech across providers

Usage: voxroute <command> [options]     (voxroute <command> --help for its options)

Commands:
  doctor  check the config and probe each provider: TTFC p50/p99, breaker, errors
  tts     speak text through the router to a WAV file, or raw PCM to stdout
  stt     transcribe a WAV file through the router, one final per line
  chat    stream a chat reply through the router to stdout
  mock    serve the config's providers as loopback mocks and print their base URLs
  bench   run the repository's routing or overhead benchmark (in a checkout)
  demo    run a voice turn (stt -> chat -> tts) against local mock providers

Options:
  -h, --help     show this help
  -v, --version  print the version

A command reads the config named by -c/--config, else $VOXROUTE_CONFIG, else
voxroute.config.{ts,mts,cts,mjs,js,cjs,json,yaml,yml} in the working folder.
Exit codes: 0 ok, 1 failed (providers, unhealthy route), 2 usage, 3 config, 4 file, 5 unavailable.
`;

/** Runs the CLI in-process with version 9.8.7 and collects what it writes. */
const run = (...argv: string[]): Promise<CliRun> => runIn('/nonexistent-voxroute-dir', ...argv);

/** As run, in the working folder `cwd`. */
const runIn = (cwd: string, ...argv: string[]): Promise<CliRun> => runCliIn(cwd, argv);

describe('runCli', () => {
  it('exit codes: 0 ok, 1 failure, 2 usage, 3 config, 4 file, 5 unavailable', () => {
    expect([EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_CONFIG, EXIT_IO, EXIT_UNAVAILABLE]).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });

  it.each([[[]], [['--help']], [['-h']], [['help']], [['--help', 'tts']]])(
    'prints the help listing every command for %j',
    async (argv) => {
      expect(await run(...argv)).toEqual({ code: 0, stdout: HELP, stderr: '' });
    },
  );

  it.each([['--version'], ['-v']])('prints only the version for %s', async (flag) => {
    expect(await run(flag)).toEqual({ code: 0, stdout: '9.8.7\n', stderr: '' });
  });

  it.each<[string, string[], string]>([
    [
      "prints a command's usage for <command> --help",
      ['stt', '--help'],
      'Usage: voxroute stt FILE.wav [--interim] [--language CODE] [--route NAME] [-c FILE]\n\ntranscribe a WAV file through the router, one final per line\n',
    ],
    [
      'prints the usage for bench --help, but passes a later --help on to the benchmark',
      ['bench', '--help'],
      "Usage: voxroute bench routing|overhead [ARGS...]\n\nrun the repository's routing or overhead benchmark (in a checkout)\n",
    ],
  ])('%s', async (_, argv, stdout) => {
    expect(await run(...argv)).toEqual({ code: 0, stdout, stderr: '' });
  });

  it.each<[string, string[], string]>([
    [
      'rejects an unknown command with exit 2 and a pointer to --help',
      ['speak'],
      "voxroute: unknown command 'speak'. Run 'voxroute --help' to list the commands.\n",
    ],
    [
      'rejects an unknown option with exit 2, naming it an option',
      ['--verbose'],
      "voxroute: unknown option '--verbose'. Run 'voxroute --help' to list the commands.\n",
    ],
    [
      "rejects an unknown option of a command with exit 2, naming it and the command's help",
      ['doctor', '--fast'],
      "voxroute: doctor: unknown option '--fast'. Run 'voxroute doctor --help'.\n",
    ],
    [
      'rejects a bad number with exit 2',
      ['doctor', '--samples', '0'],
      "voxroute: doctor: --samples must be a whole number >= 1, not '0'\n",
    ],
  ])('%s', async (_, argv, stderr) => {
    expect(await run(...argv)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('cli-option-typo: an unknown option of a command names the option it most likely meant', async () => {
    expect(await run('chat', 'hi', '--modle', 'fast')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "voxroute: chat: unknown option '--modle' (did you mean '--model'?). Run 'voxroute chat --help'.\n",
    });
    expect(await run('doctor', '--sample', '3')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "voxroute: doctor: unknown option '--sample' (did you mean '--samples'?). Run 'voxroute doctor --help'.\n",
    });
  });

  it('exits 3 when no config is named or found', async () => {
    expect(await run('doctor')).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'voxroute: no config file: pass --config FILE, set VOXROUTE_CONFIG, or add voxroute.config.{ts,mts,cts,mjs,js,cjs,json,yaml,yml} to /nonexistent-voxroute-dir\n',
    });
  });

  it('exits 2 for tts without text, and for bench without a benchmark name', async () => {
    expect(await run('tts')).toEqual({
      code: 2,
      stdout: '',
      stderr: "voxroute: tts: give the text to speak, e.g. voxroute tts 'Hello there' -o hello.wav\n",
    });
    expect((await run('bench', 'fast')).stderr).toBe(
      "voxroute: bench: name a benchmark: voxroute bench routing|overhead [ARGS...] (not 'fast')\n",
    );
  });

  it.each([['   '], ['...'], ['🙂 —']])(
    'exits 2 for tts text with nothing to speak (%j), before reading any config',
    async (text) => {
      expect(await run('tts', text, '-o', '/nonexistent-voxroute-dir/x.wav')).toEqual({
        code: 2,
        stdout: '',
        stderr: `voxroute: tts: the text has nothing to speak (no letter or digit): ${JSON.stringify(text)}; give words, e.g. voxroute tts 'Hello there' -o hello.wav\n`,
      });
    },
  );

  it.each(['cjs', 'cts', 'yml'])('finds voxroute.config.%s in the working folder', (ext) => {
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-'));
    writeFileSync(join(dir, `voxroute.config.${ext}`), '');
    expect(
      configPath({ version: '0', cwd: dir, env: {}, stdout: () => {}, stderr: () => {} }, undefined),
    ).toBe(join(dir, `voxroute.config.${ext}`));
  });

  it('looks for one config name per extension loadConfig reads, in the order docs/config.md lists them', () => {
    expect(DEFAULT_CONFIG_FILES).toEqual(
      ['ts', 'mts', 'cts', 'mjs', 'js', 'cjs', 'json', 'yaml', 'yml'].map((e) => `voxroute.config.${e}`),
    );
  });

  describe('stt (in-process, no provider contacted)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-stt-'));
    writeFileSync(
      join(dir, 'voxroute.config.json'),
      JSON.stringify({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: 'http://127.0.0.1:9/v1',
            stt: { model: 'w', streaming: false },
          },
        },
        routes: { stt: { providers: ['a'] } },
      }),
    );
    // PCM s16le 16 kHz mono: RIFF/WAVE, a 16-byte fmt chunk, then a LIST chunk cut off (no data chunk).
    const header = wavHeaderByHand(16_000, 26, { riffBytes: 0x55f46 });
    header.write('LIST', 36);
    writeFileSync(join(dir, 'header-only.wav'), header);
    const good = Buffer.concat([
      header.subarray(0, 36),
      Buffer.from('data\x40\x00\x00\x00', 'latin1'),
      Buffer.alloc(64),
    ]);
    writeFileSync(join(dir, 'short.wav'), good);

    it('exits 4 with the "not a WAV file" wording for a WAV file that ends before its data chunk', async () => {
      const file = join(dir, 'header-only.wav');
      expect(await runIn(dir, 'stt', 'header-only.wav')).toEqual({
        code: 4,
        stdout: '',
        stderr: `voxroute: stt: ${file} is not a WAV file voxroute reads: WAV stream ended after 44 bytes, before its data chunk\n`,
      });
    });

    it('exits 4 naming the file for a WAV file whose sample rate voxroute cannot send (4 kHz)', async () => {
      const low = Buffer.concat([wavHeaderByHand(4000, 64), Buffer.alloc(64)]);
      writeFileSync(join(dir, 'low.wav'), low);
      const file = join(dir, 'low.wav');
      expect(await runIn(dir, 'stt', 'low.wav')).toEqual({
        code: 4,
        stdout: '',
        stderr: `voxroute: stt: ${file} is a WAV file voxroute cannot transcribe: Invalid request field 'format.sampleRate': expected a whole number of Hz from 8000 to 192000, got 4000\n`,
      });
    });

    it('exits 2 for a --language that is not a BCP 47 tag', async () => {
      expect(await runIn(dir, 'stt', 'short.wav', '--language', 'english!!')).toEqual({
        code: 2,
        stdout: '',
        stderr: `voxroute: stt: Invalid request field 'language': expected a BCP 47 language tag of a known language, such as 'en' or 'en-US', got "english!!"\n`,
      });
    });
  });

  it('treats a differently cased command as unknown', async () => {
    expect((await run('TTS')).code).toBe(2);
  });
});

describe('voxroute tts progress', () => {
  it('a slow call prints one progress line when the audio starts, not one per chunk', async () => {
    const { createServer } = await import('node:http');
    // The call is slow: the server answers once the CLI has printed its first progress line
    // (an event, not a race between the 0 ms progress timer and a loopback answer).
    const slow = deferred();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void slow.promise.then(() => {
          res.writeHead(200, { 'content-type': 'audio/pcm' });
          // Three chunks, each written once the previous one is on the wire.
          res.write(Buffer.alloc(4800, 1), () =>
            res.write(Buffer.alloc(4800, 2), () => res.end(Buffer.alloc(4800, 3))),
          );
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-tts-'));
    writeFileSync(
      join(dir, 'voxroute.config.json'),
      JSON.stringify({
        providers: {
          a: {
            kind: 'openai-compatible',
            baseUrl: `http://127.0.0.1:${port}/v1`,
            tts: { voices: { v: 'alloy' } },
          },
        },
        routes: { tts: { providers: ['a'] } },
      }),
    );
    let stderr = '';
    try {
      const code = await runCli(['tts', 'Hello there.', '-o', join(dir, 'out.wav')], {
        version: '9.8.7',
        cwd: dir,
        env: { VOXROUTE_PROGRESS_AFTER_MS: '0' },
        stdout: () => {},
        stderr: (t) => {
          stderr += t;
          if (t.startsWith('voxroute: ')) slow.resolve();
        },
      });
      expect(code).toBe(0);
      const progress = stderr.split('\n').filter((line) => line.startsWith('voxroute: '));
      expect(progress[0]).toBe("voxroute: speaking through route 'tts'");
      expect(progress.filter((line) => line === 'voxroute: receiving audio')).toHaveLength(1);
      expect(progress.some((line) => line.includes('bytes of audio'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
