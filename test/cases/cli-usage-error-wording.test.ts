/**
 * Every usage error of a CLI command reads `voxroute: <command>: <message>`: an unknown or
 * mismatched `--route` (`voxroute chat hi --route nope`), and a request the command built from
 * its arguments that the library refuses (`stt --language 'english!!'`, before printed as
 * `voxroute: RequestError: ...`). And `tts -o FILE` whose folder does not exist exits 4 before
 * any provider is called (it was called, and billed, first).
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_IO, EXIT_USAGE } from '../../src/cli/run.js';
import { type CliRun, runCliIn } from '../helpers/run-cli.js';
import { wavHeaderByHand } from '../helpers/wav-header.js';

/** Runs the CLI in-process in `cwd`, its progress line held back for an hour. */
const runIn = (cwd: string, ...argv: string[]): Promise<CliRun> =>
  runCliIn(cwd, argv, { VOXROUTE_PROGRESS_AFTER_MS: '3600000' });

/** A provider that counts the requests it gets and answers each with 500. */
const hits: string[] = [];
const server = createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  req.resume();
  req.on('end', () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"no"}'));
});
const dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-usage-'));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  writeFileSync(
    join(dir, 'voxroute.config.json'),
    JSON.stringify({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `http://127.0.0.1:${port}/v1`,
          chat: { models: { fast: 'm' } },
          tts: { model: 't', voices: { agent: 'v' } },
          stt: { model: 'w', streaming: false },
        },
      },
      routes: { chat: { providers: ['a'] }, tts: { providers: ['a'] }, stt: { providers: ['a'] } },
    }),
  );
  // PCM s16le 16 kHz mono, 32 samples of silence.
  writeFileSync(join(dir, 'short.wav'), Buffer.concat([wavHeaderByHand(16_000, 64), Buffer.alloc(64)]));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('CLI usage errors name their command', () => {
  it('chat --route nope', async () => {
    expect(await runIn(dir, 'chat', 'hi', '--route', 'nope')).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: "voxroute: chat: no route 'nope'; chat routes: chat\n",
    });
  });

  it('tts --route chat (a route of another capability)', async () => {
    expect(await runIn(dir, 'tts', 'Hello there', '--route', 'chat', '-o', 'x.wav')).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: "voxroute: tts: route 'chat' is a chat route, not tts; tts routes: tts\n",
    });
  });

  it("stt --language 'english!!'", async () => {
    expect(await runIn(dir, 'stt', 'short.wav', '--language', 'english!!')).toEqual({
      code: EXIT_USAGE,
      stdout: '',
      stderr: `voxroute: stt: Invalid request field 'language': expected a BCP 47 language tag of a known language, such as 'en' or 'en-US', got "english!!"\n`,
    });
  });

  it('none of these reached the provider', () => {
    expect(hits).toEqual([]);
  });
});

describe('tts -o into a folder that does not exist', () => {
  it('exits 4 naming the file, and the provider is never called', async () => {
    const file = join(dir, 'no-such-folder', 'x.wav');
    expect(await runIn(dir, 'tts', 'Hello there', '-o', 'no-such-folder/x.wav')).toEqual({
      code: EXIT_IO,
      stdout: '',
      stderr: `voxroute: tts: cannot write ${file}: ENOENT\n`,
    });
    expect(hits).toEqual([]);
  });

  it('exits 4 with EISDIR when the output is a folder', async () => {
    expect(await runIn(dir, 'tts', 'Hello there', '-o', '.')).toEqual({
      code: EXIT_IO,
      stdout: '',
      stderr: `voxroute: tts: cannot write ${dir}: EISDIR\n`,
    });
    expect(hits).toEqual([]);
  });
});
