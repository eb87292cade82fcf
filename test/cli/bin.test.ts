import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../src/index.js';
import {
  createOpenAiCompatibleMock,
  DEFAULT_CHAT_REPLY,
  DEFAULT_TRANSCRIPT,
  type MockServer,
  startMockServer,
  syntheticWav,
} from '../../src/testing/index.js';
import { bin, ensureBuilt, root, runBin } from './built-bin.js';

let dir: string;
let good: MockServer;
let bad: MockServer;

const section = `
    chat: { models: { fast: m } }
    tts: { model: t, voices: { agent: alloy }, responseFormat: pcm }
    stt: { model: s }`;

/** Writes a YAML config in the temp folder and returns its path. */
function config(name: string, routes: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `providers:
  good:
    kind: openai-compatible
    baseUrl: { env: GOOD_URL }${section}
  bad:
    kind: openai-compatible
    baseUrl: ${bad.url}/v1${section}
routes:
${routes}
`,
  );
  return file;
}

let env: Record<string, string>;
let healthy: string;
let mixed: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-'));
  good = await startMockServer({ provider: createOpenAiCompatibleMock() });
  bad = await startMockServer({
    provider: createOpenAiCompatibleMock({ script: { failTimes: 1_000_000, failStatus: 503 } }),
  });
  // No progress line ("waiting for the reply ...") however slow the machine, so that stderr is
  // compared exactly: the notice's delay is set to an hour.
  env = { GOOD_URL: `${good.url}/v1`, VOXROUTE_PROGRESS_AFTER_MS: '3600000' };
  healthy = config(
    'healthy.yaml',
    '  tts: { providers: [bad, good], strategy: priority }\n  chat: { providers: [good] }\n  stt: { providers: [bad, good], strategy: priority }',
  );
  mixed = config('mixed.yaml', '  chat: { providers: [good] }\n  stt: { providers: [bad] }');
}, 300_000);

afterAll(async () => {
  await Promise.all([good?.close(), bad?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('voxroute chat (built bin, loopback mocks)', () => {
  it('streams the reply to stdout and a summary to stderr', async () => {
    const r = await runBin(['chat', 'Hello?', '-c', healthy], { env });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${DEFAULT_CHAT_REPLY}\n`);
    expect(r.stderr).toMatch(/^voxroute: via good, first chunk in \d+ ms\n$/);
  });

  it('exits 2 naming the models for an unknown --model', async () => {
    const r = await runBin(['chat', 'Hi', '--model', 'slow', '-c', healthy], { env });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      "voxroute: chat: no model 'slow' on route 'chat'; models: fast\n",
    ]);
  });
});

describe('voxroute tts (built bin, loopback mocks)', () => {
  it('writes a WAV file after falling back, and the same audio raw to stdout', async () => {
    const wavFile = join(dir, 'out.wav');
    const r = await runBin(['tts', 'Hello there.', '-o', wavFile, '-c', healthy], { env });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^voxroute: bad failed \\(ProviderError PROVIDER_ERROR\\), trying good\\nvoxroute: wrote ${wavFile.replace(/[.]/g, '\\.')}: \\d+ ms of PCM s16le 24000 Hz mono, via good after bad failed, first chunk in \\d+ ms\\n$`,
      ),
    );
    const wav = readFileSync(wavFile);
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt32LE(40)).toBe(wav.byteLength - 44);
    expect(wav.byteLength - 44).toBeGreaterThan(0);

    const raw = await runBin(['tts', 'Hello there.', '-c', healthy], { env });
    expect(raw.status).toBe(0);
    expect(raw.stdoutBytes.equals(wav.subarray(44))).toBe(true);
    expect(raw.stderr).toContain(`voxroute: ${wav.byteLength - 44} bytes (`);
  });
});

describe('voxroute stt (built bin, loopback mocks)', () => {
  it('prints the final transcript of a WAV file', async () => {
    const input = join(dir, 'speech.wav');
    writeFileSync(
      input,
      syntheticWav({ format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 }, durationMs: 500 }),
    );
    const r = await runBin(['stt', input, '-c', healthy], { env });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${DEFAULT_TRANSCRIPT}\n`);
    expect(r.stderr).toMatch(
      /voxroute: 1 final transcript\(s\), via good after bad failed, first chunk in \d+ ms\n$/,
    );
  });

  it('prints partial transcripts too with --interim, each starting with "~ "', async () => {
    const input = join(dir, 'speech-interim.wav');
    writeFileSync(
      input,
      syntheticWav({ format: { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 }, durationMs: 500 }),
    );
    const r = await runBin(['stt', input, '--interim', '-c', healthy], { env });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        '~ This',
        '~ This is',
        '~ This is a',
        '~ This is a mock',
        `~ ${DEFAULT_TRANSCRIPT}`,
        DEFAULT_TRANSCRIPT,
        '',
      ].join('\n'),
    );
  });

  it('exits 4 for a file that is not WAV, and for a missing file', async () => {
    const notWav = join(dir, 'notes.txt');
    writeFileSync(notWav, 'hello, this is not audio at all');
    const r = await runBin(['stt', notWav, '-c', healthy], { env });
    expect(r.status).toBe(4);
    expect(r.stderr).toMatch(
      new RegExp(`^voxroute: stt: ${notWav.replace(/[.]/g, '\\.')} is not a WAV file voxroute reads: `),
    );
    const missing = await runBin(['stt', join(dir, 'none.wav'), '-c', healthy], { env });
    expect([missing.status, missing.stderr]).toEqual([
      4,
      `voxroute: stt: cannot read ${join(dir, 'none.wav')}: ENOENT\n`,
    ]);
  });
});

describe('voxroute doctor (built bin, loopback mocks)', () => {
  it('reports every provider x capability as JSON and exits 0 when every route has a healthy provider', async () => {
    const r = await runBin(['doctor', '--json', '--samples', '2', '-c', healthy], { env });
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.config).toBe(healthy);
    expect(report.ok).toBe(true);
    const shape = report.probes.map((p: Record<string, unknown>) => [
      p.provider,
      p.capability,
      p.name ?? null,
      `${p.ok}/${p.samples}`,
      p.breaker,
      typeof p.ttfcP50Ms,
      p.errors,
    ]);
    const error =
      "ProviderError PROVIDER_ERROR: Provider 'bad' answered HTTP 503: mock failure (scripted to always fail)";
    expect(shape.map((row: unknown[]) => row.slice(0, 5))).toEqual([
      ['good', 'tts', 'agent', '2/2', 'closed'],
      ['good', 'stt', null, '2/2', 'closed'],
      ['good', 'chat', 'fast', '2/2', 'closed'],
      ['bad', 'tts', 'agent', '0/2', 'closed'],
      ['bad', 'stt', null, '0/2', 'closed'],
      ['bad', 'chat', 'fast', '0/2', 'closed'],
    ]);
    expect(shape.map((row: unknown[]) => row[5])).toEqual([
      'number',
      'number',
      'number',
      'object',
      'object',
      'object',
    ]);
    expect(report.probes.slice(3).map((p: { errors: string[] }) => p.errors)).toEqual([
      [error],
      [error],
      [error],
    ]);
    expect(report.routes).toEqual([
      { route: 'tts', capability: 'tts', healthy: ['good'], ok: true },
      { route: 'chat', capability: 'chat', healthy: ['good'], ok: true },
      { route: 'stt', capability: 'stt', healthy: ['good'], ok: true },
    ]);
  });

  it('prints a table and exits 1 when a route has no healthy provider', async () => {
    const r = await runBin(['doctor', '--samples', '1', '-c', mixed], { env });
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`config: ${mixed}`);
    expect(lines[2]).toMatch(/^provider +capability +ok +ttfc p50 +ttfc p99 +breaker +errors$/);
    expect(lines[3]).toMatch(/^good +tts +1\/1 +\d+(\.\d)? ms +\d+(\.\d)? ms +closed +-$/);
    expect(lines[6]).toMatch(/^bad +tts +0\/1 +- +- +closed +ProviderError PROVIDER_ERROR: /);
    expect(lines.slice(-6)).toEqual([
      'routes:',
      '  chat (chat): ok, healthy: good',
      '  stt (stt): NO HEALTHY PROVIDER',
      '',
      'doctor: some routes have no healthy provider',
      '',
    ]);
  });

  it('exits 3 with every issue and a did-you-mean for an invalid config, before contacting anything', async () => {
    const file = join(dir, 'typo.yaml');
    writeFileSync(
      file,
      'providers:\n  a:\n    kind: openai\n    apiKey: k\n    baseURL: http://127.0.0.1:9/v1\n    chat: { models: { m: x } }\nroutes: {}\n',
    );
    const r = await runBin(['doctor', '-c', file]);
    expect([r.status, r.stdout]).toEqual([3, '']);
    expect(r.stderr).toBe(
      `voxroute: Invalid voxroute config in ${file}:\n  providers.a.baseURL: unknown key; did you mean "baseUrl"?\n`,
    );
  });
});

describe('voxroute mock (built bin)', () => {
  it("serves the config's providers on loopback, prints their base URLs, and stops on SIGTERM", async () => {
    const file = join(dir, 'mock.yaml');
    writeFileSync(
      file,
      'providers:\n  llm:\n    kind: openai\n    apiKey: { env: UNSET_KEY_FOR_MOCK }\n    chat: { models: { fast: m } }\n  claude:\n    kind: anthropic\n    apiKey: k\n    chat: { models: { fast: m } }\nroutes: {}\n',
    );
    const child = spawn(process.execPath, [bin, 'mock', '--json', '-c', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
    });
    const served = JSON.parse(line) as { providers: Record<string, { kind: string; baseUrl: string }> };
    expect(Object.keys(served.providers)).toEqual(['llm', 'claude']);
    expect(served.providers.llm).toEqual({
      kind: 'openai',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/),
    });
    expect(served.providers.claude).toEqual({
      kind: 'anthropic',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    const res = await fetch(`${served.providers.llm!.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]!.message.content).toBe(DEFAULT_CHAT_REPLY);
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(stderr).toBe('voxroute: serving 2 mock provider(s) on loopback; stop with Ctrl-C\n');
  });
});

describe('voxroute demo (built bin)', () => {
  it('runs stt -> chat -> tts on two loopback mocks, falling back from the failing one', async () => {
    const out = join(dir, 'reply.wav');
    const r = await runBin(['demo', '-o', out]);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^mock-a \(http:\/\/127\.0\.0\.1:\d+\) answers 503; mock-b \(http:\/\/127\.0\.0\.1:\d+\) is healthy$/,
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^stt:  "${DEFAULT_TRANSCRIPT.replace('.', '\\.')}" via mock-b after mock-a failed, first chunk in \\d+ ms$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^chat: "${DEFAULT_CHAT_REPLY.replace('.', '\\.')}" via mock-b after mock-a failed, first chunk in \\d+ ms$`,
      ),
    );
    expect(lines[3]).toMatch(
      /^tts: {2}\d+ ms of audio via mock-b after mock-a failed, first chunk in \d+ ms$/,
    );
    expect(lines.slice(4)).toEqual([`wrote ${out}`, '']);
    expect(readFileSync(out).subarray(0, 4).toString('latin1')).toBe('RIFF');
  });
});

describe('voxroute/schema.json (written by npm run build)', () => {
  it('is exported by package.json and equals configJsonSchema()', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./schema.json']).toBe('./dist/schema.json');
    expect(JSON.parse(readFileSync(join(root, 'dist/schema.json'), 'utf8'))).toEqual(configJsonSchema());
  });
});

describe('voxroute bench (built bin)', () => {
  it("runs the repository's overhead benchmark with the arguments given", async () => {
    const r = await runBin([
      'bench',
      'overhead',
      '--pairs',
      '10',
      '--warmup',
      '2',
      '--streams',
      '1',
      '--server',
      'inline',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      'voxroute: running bench/overhead.ts --pairs 10 --warmup 2 --streams 1 --server inline',
    );
    expect(r.stdout).toMatch(/^ {2}router\.tts\(\) +\d+/m);
    expect(r.stdout).toMatch(/^ {2}added per chunk \(median pair \/ \d+, µs\)/m);
  }, 180_000);

  it('exits 5 with an explanation outside a repository checkout', async () => {
    const pkg = mkdtempSync(join(tmpdir(), 'voxroute-pkg-'));
    try {
      mkdirSync(join(pkg, 'dist/cli'), { recursive: true });
      copyFileSync(bin, join(pkg, 'dist/cli/main.js'));
      copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
      const r = await runBin(['bench', 'routing'], { cwd: pkg, file: join(pkg, 'dist/cli/main.js') });
      expect(r.status).toBe(5);
      expect(r.stderr).toBe(
        "voxroute: bench: the benchmarks are TypeScript sources of the voxroute repository, not shipped in the npm package; run them from a checkout after 'npm ci': npx voxroute bench routing\n",
      );
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });
});
