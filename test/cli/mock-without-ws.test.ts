/**
 * `voxroute mock` without the optional peer `ws`, for a config with a provider whose mock serves
 * WebSockets: the error reads like the command's other errors (`voxroute: mock: ...`, naming
 * the providers and `ws`) and exits 5 (unavailable here), as a missing msw does; before, it was
 * the testing kit's bare error (`voxroute: Error: voxroute/testing: ...`, exit 1). A config of
 * HTTP-only providers does not need `ws`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  vi.doUnmock('ws');
  vi.resetModules();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function mockWithoutWs(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'voxroute-mock-no-ws-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'voxroute.config.yaml'), yaml);
  vi.resetModules();
  vi.doMock('ws', () => {
    throw new Error("Cannot find package 'ws'");
  });
  const { runCli } = await import('../../src/cli/run.js');
  const stderr: string[] = [];
  const stdout: string[] = [];
  const controller = new AbortController();
  const ctx = {
    version: '0.0.0',
    cwd: dir,
    env: {},
    signal: controller.signal,
    stdout: (t: string) => stdout.push(t),
    stderr: (t: string) => {
      stderr.push(t);
      // The mocks are up: stop serving.
      if (t.includes('serving')) controller.abort();
    },
  };
  const code = await runCli(['mock'], ctx);
  return { code, stderr: stderr.join(''), stdout: stdout.join('') };
}

describe('voxroute mock without ws', () => {
  it('a config with Cartesia and Deepgram providers: `voxroute: mock: ...` naming them and ws, exit 5, nothing served', async () => {
    const { code, stderr, stdout } = await mockWithoutWs(
      'providers:\n  llm:\n    kind: openai\n    apiKey: k\n    chat: { models: { fast: m } }\n  sonic:\n    kind: cartesia\n    apiKey: k\n    tts: { model: sonic-3, voices: { agent: v } }\n  dg:\n    kind: deepgram\n    apiKey: k\n    stt: { model: nova-3 }\nroutes: {}\n',
    );
    expect([code, stdout]).toEqual([5, '']);
    expect(stderr).toBe(
      'voxroute: mock: the mocks of sonic, dg serve WebSockets and need the optional peer dependency ws: npm install ws\n',
    );
  });

  it('a config of HTTP-only providers is served without ws', async () => {
    const { code, stderr, stdout } = await mockWithoutWs(
      'providers:\n  llm:\n    kind: openai\n    apiKey: k\n    chat: { models: { fast: m } }\nroutes: {}\n',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^llm {2}openai {2}http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
    expect(stderr).toBe('voxroute: serving 1 mock provider(s) on loopback; stop with Ctrl-C\n');
  });
});
