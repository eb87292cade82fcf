import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_REPLY, mockCartesiaAudio } from '../../src/testing/index.js';
import { bin, ensureBuilt, runBin } from './built-bin.js';

const run = promisify(execFile);
let dir: string;
let file: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'voxroute-cli-tls-'));
  file = join(dir, 'mock.yaml');
  writeFileSync(
    file,
    'providers:\n  llm:\n    kind: openai\n    apiKey: { env: UNSET_KEY_FOR_MOCK }\n    chat: { models: { fast: m } }\n  sonic:\n    kind: cartesia\n    apiKey: k\n    tts: { model: sonic-3, voices: { agent: v } }\nroutes: {}\n',
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `voxroute mock ARGS` and resolves with its stdout once `ready(stdout)` holds. */
function startMock(args: string[], ready: (out: string) => boolean) {
  const child = spawn(process.execPath, [bin, 'mock', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const output = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (ready(out)) resolve(out);
    });
    child.once('close', (code) => reject(new Error(`voxroute mock exited ${code}: ${stderr}`)));
  });
  return { child, output, stderr: () => stderr };
}

async function stop(child: ReturnType<typeof spawn>): Promise<number | null> {
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  return exit;
}

const certificates = (pem: string) => pem.match(/-----END CERTIFICATE-----/g)?.length ?? 0;

async function chat(baseUrl: string, agent: Agent): Promise<string> {
  const res = await undiciFetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    dispatcher: agent,
  });
  const body = (await res.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]!.message.content;
}

describe('voxroute mock --tls (built bin)', () => {
  it('prints https base URLs, then the CA bundle, which a client trusts to call every mock', async () => {
    const mock = startMock(['--tls', '-c', file], (out) => certificates(out) === 2);
    try {
      const out = await mock.output;
      const [llmLine, sonicLine, ...rest] = out.split('\n');
      expect(llmLine).toMatch(/^llm {4}openai {4}https:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(sonicLine).toMatch(/^sonic {2}cartesia {2}https:\/\/127\.0\.0\.1:\d+$/);
      const ca = rest.join('\n');
      expect(ca).toMatch(
        /^-----BEGIN CERTIFICATE-----\n[^-]+-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\n[^-]+-----END CERTIFICATE-----\n$/,
      );
      const trusting = new Agent({ connect: { ca } });
      try {
        expect(await chat(llmLine!.split(/ +/)[2]!, trusting)).toBe(DEFAULT_CHAT_REPLY);
        const res = await undiciFetch(`${sonicLine!.split(/ +/)[2]}/tts/bytes`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': 'any',
            'cartesia-version': '2025-04-16',
          },
          body: JSON.stringify({
            model_id: 'sonic-3',
            transcript: 'Over TLS.',
            voice: { mode: 'id', id: 'v' },
            output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
          }),
          dispatcher: trusting,
        });
        expect(res.status).toBe(200);
        const audio = new Uint8Array(await res.arrayBuffer());
        expect(
          Buffer.from(audio).equals(
            Buffer.from(mockCartesiaAudio('Over TLS.', { encoding: 'pcm_s16le', sampleRate: 24000 })),
          ),
        ).toBe(true);
      } finally {
        await trusting.close();
      }
      expect(await stop(mock.child)).toBe(0);
      expect(mock.stderr()).toBe('voxroute: serving 2 mock provider(s) on loopback; stop with Ctrl-C\n');
    } finally {
      mock.child.kill('SIGKILL');
    }
  });

  it('--ca-out FILE --json: writes the CA to FILE, which another process trusts via NODE_EXTRA_CA_CERTS', async () => {
    const caFile = join(dir, 'mock-ca.pem');
    const mock = startMock(['--tls', '--ca-out', caFile, '--json', '-c', file], (out) => out.includes('\n'));
    try {
      const served = JSON.parse(await mock.output) as Record<string, unknown> & {
        providers: Record<string, { kind: string; baseUrl: string }>;
      };
      expect(Object.keys(served)).toEqual(['providers']);
      expect(served.providers.llm!.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(certificates(readFileSync(caFile, 'utf8'))).toBe(2);
      const script = `fetch(${JSON.stringify(`${served.providers.llm!.baseUrl}/chat/completions`)}, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer any' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) }).then(r => r.json()).then(b => process.stdout.write(b.choices[0].message.content))`;
      const { stdout } = await run(process.execPath, ['-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
      });
      expect(stdout).toBe(DEFAULT_CHAT_REPLY);
      expect(await stop(mock.child)).toBe(0);
      expect(mock.stderr()).toBe(
        `voxroute: wrote the CA certificate(s) of the TLS mocks to ${caFile}\nvoxroute: serving 2 mock provider(s) on loopback; stop with Ctrl-C\n`,
      );
    } finally {
      mock.child.kill('SIGKILL');
    }
  });

  it('--ca-out without --tls is a usage error (exit 2)', async () => {
    const r = await runBin(['mock', '--ca-out', join(dir, 'x.pem'), '-c', file]);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      "voxroute: mock: --ca-out needs --tls. Run 'voxroute mock --help'.\n",
    ]);
  });
});
