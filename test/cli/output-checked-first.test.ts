/**
 * Fault kind: an output path checked only after the work. `voxroute demo -o FILE` ran the whole
 * voice turn (mocks started, three routed calls) and only then failed to write FILE, with a
 * message unlike `tts -o`'s; `voxroute mock --tls --ca-out FILE` started every mock first. Both
 * are now checked first, as `tts -o` is: exit 4, nothing run, the error code named.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../helpers/run-cli.js';

describe('voxroute demo -o checks the file before the demo runs', () => {
  it('a missing folder: exit 4, the error code named, no demo line printed', async () => {
    const r = await runCliIn('/nonexistent-voxroute-dir', ['demo', '-o', 'sub/reply.wav']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: 'voxroute: demo: cannot write /nonexistent-voxroute-dir/sub/reply.wav: ENOENT\n',
    });
  });

  it('a folder as FILE: exit 4, EISDIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-demo-'));
    try {
      const r = await runCliIn(dir, ['demo', '-o', dir]);
      expect(r).toEqual({ code: 4, stdout: '', stderr: `voxroute: demo: cannot write ${dir}: EISDIR\n` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('voxroute mock --ca-out checks the file before the config is read', () => {
  it('a missing folder: exit 4 (not the missing config), nothing served', async () => {
    const r = await runCliIn('/nonexistent-voxroute-dir', ['mock', '--tls', '--ca-out', 'ca/mock.pem']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: 'voxroute: mock: cannot write /nonexistent-voxroute-dir/ca/mock.pem: ENOENT\n',
    });
  });
});
