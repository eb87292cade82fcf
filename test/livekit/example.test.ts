import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

const root = resolve(import.meta.dirname, '../..');
const major = Number(process.versions.node.split('.')[0]);

// scripts/run-ts.mjs runs TypeScript through jiti's ESM loader hook, which on Node 20 fails to
// link the CommonJS OpenTelemetry modules @livekit/agents loads (ERR_VM_MODULE_LINK_FAILURE);
// the plugin itself runs on Node 20 (the other tests of this folder), the example's runner does not.
describe('examples/livekit-agent.ts', () => {
  it(
    'runs one voice turn through voxroute.STT, LLM and TTS, each falling back from the 503 provider',
    async (ctx) => {
      if (major < 22) {
        console.warn(
          `skipped: jiti's loader hook cannot load @livekit/agents on Node ${process.versions.node}`,
        );
        ctx.skip(`jiti's loader hook cannot load @livekit/agents on Node ${process.versions.node}`);
      }
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['scripts/run-ts.mjs', 'examples/livekit-agent.ts'],
        {
          cwd: root,
          // A hang guard, not a speed check: the example runs the sources through jiti.
          timeout: PROBE_HANG_MS,
        },
      );
      expect(stdout.split('\n').filter(Boolean)).toEqual([
        'stt: end of utterance (the plugin rule)',
        '  [voxroute] stt: failing failed, falling back to serving',
        'stt: "A table for two at eight."',
        '  [voxroute] chat: failing failed, falling back to serving',
        '  [voxroute] tts: failing failed, falling back to serving',
        'llm: "Booked: two people at eight."',
        'tts: 1680 ms of 24 kHz audio',
      ]);
    },
    PROBE_TEST_MS,
  );
});
