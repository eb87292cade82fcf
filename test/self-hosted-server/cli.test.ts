import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_KEY_ENV, parseCliArgs } from '../../examples/self-hosted-server/cli.js';
import { PROBE_TEST_MS } from '../helpers/import-probe.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('parseCliArgs', () => {
  it('reads every option', () => {
    expect(
      parseCliArgs(
        [
          '--port',
          '8801',
          '--host',
          '0.0.0.0',
          '--fail-mode',
          'stall',
          '--api-key',
          'K1',
          '--espeak',
          '/opt/espeak-ng',
          '--pocketsphinx',
          '/opt/pocketsphinx',
          '--word-gap-ms',
          '0',
          '--quiet',
        ],
        {},
      ),
    ).toEqual({
      kind: 'serve',
      quiet: true,
      options: {
        port: 8801,
        host: '0.0.0.0',
        failMode: 'stall',
        apiKey: 'K1',
        engines: { espeak: '/opt/espeak-ng', pocketsphinx: '/opt/pocketsphinx' },
        chatWordGapMs: 0,
      },
    });
  });

  it(`takes the API key from ${API_KEY_ENV} when --api-key is absent, and --help wins`, () => {
    expect(parseCliArgs([], { [API_KEY_ENV]: 'from-env' })).toEqual({
      kind: 'serve',
      quiet: false,
      options: { apiKey: 'from-env' },
    });
    expect(parseCliArgs(['--port', '1', '--help'], {})).toEqual({ kind: 'help' });
  });

  it('rejects a bad fail mode, a bad port and unknown options', () => {
    expect(() => parseCliArgs(['--fail-mode', 'flaky'], {})).toThrow(
      "--fail-mode must be one of none, 503, stall, reset, got 'flaky'.",
    );
    expect(() => parseCliArgs(['--port', '70000'], {})).toThrow("--port must be at most 65535, got '70000'.");
    expect(() => parseCliArgs(['--port', 'x'], {})).toThrow(
      "--port must be a non-negative integer, got 'x'.",
    );
    expect(() => parseCliArgs(['--verbose'], {})).toThrow(/Unknown option '--verbose'/);
  });
});

describe('server.ts as a command', () => {
  it(
    'starts with node --import jiti/register, serves, and exits 0 on SIGTERM',
    async () => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'jiti/register',
          'examples/self-hosted-server/server.ts',
          '--port',
          '0',
          '--fail-mode',
          '503',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const exit = once(child, 'exit');
      child.stdout.setEncoding('utf8');
      let out = '';
      for await (const part of child.stdout) {
        out += part;
        if (out.includes('pocketsphinx:')) break;
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out).toContain('fail mode: 503; API key: none (open)');
      const response = await fetch(`${url}/health`);
      expect(response.status).toBe(503);
      child.kill('SIGTERM');
      expect(await exit).toEqual([0, null]);
      // The child transpiles the server's sources through jiti: longer than the default 20 s test
      // timeout on a loaded machine (see PROBE_HANG_MS).
    },
    PROBE_TEST_MS,
  );
});
