/**
 * Fault kind: a summary with a blank where a name should be. `voxroute stt` on a WAV file whose
 * data chunk is empty makes a call that asks no provider (there is no audio to send), and its
 * summary read "0 final transcript(s), via , first chunk in 0 ms". It now says what happened.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/index.js';
import { runCliIn } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'voxroute-empty-stt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('voxroute stt on a WAV file with no audio', () => {
  it('says no provider was called, with no blank provider name', async () => {
    // Port 1 refuses: a provider contacted would fail the command, not succeed.
    writeFileSync(
      join(dir, 'voxroute.config.json'),
      JSON.stringify({
        providers: {
          ec2: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', stt: { model: 'w' } },
        },
        routes: { stt: { providers: ['ec2'] } },
      }),
    );
    writeFileSync(
      join(dir, 'empty.wav'),
      encodeWav({ encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 }, new Uint8Array(0)),
    );
    expect(await runCliIn(dir, ['stt', 'empty.wav'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'voxroute: 0 final transcript(s), no provider called: there was nothing to send\n',
    });
  });
});
