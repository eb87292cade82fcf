import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';
import { describeAiSdk } from './helpers.js';

const root = resolve(import.meta.dirname, '../..');

describeAiSdk('examples/ai-sdk.ts', () => {
  it(
    'runs: each of streamText, generateSpeech and transcribe falls back from the 503 provider and is served',
    async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['scripts/run-ts.mjs', 'examples/ai-sdk.ts'],
        {
          cwd: root,
          // A hang guard, not a speed check: the example runs the sources through jiti.
          timeout: PROBE_HANG_MS,
        },
      );
      expect(stdout.split('\n').filter(Boolean)).toEqual([
        'streamText (logical model "fast"):',
        '  [voxroute] chat: primary failed, falling back to backup',
        '  "Your table for two is booked at eight." (served by backup)',
        'generateSpeech (logical voice "agent", WAV by default):',
        '  [voxroute] tts: primary failed, falling back to backup',
        '  audio/wav, 109484 bytes, 2280 ms of 24 kHz speech',
        'transcribe (the "stt" route), through a provider registry:',
        '  [voxroute] stt: primary failed, falling back to backup',
        '  "A table for two at eight." (2.28 s of audio)',
      ]);
    },
    PROBE_TEST_MS,
  );
});
