import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startDemoServers } from '../../examples/demo/servers.js';
import { runVoiceTurn, type VoiceTurn } from '../../examples/demo/voice-turn.js';
import { createRouter, loadConfig, ProviderError, readWav } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where `voxroute` resolves when jiti loads examples/voxroute.config.ts: the config imports
 * only `defineConfig`, so the alias names that module (type-only imports, one file to
 * transpile). Aliased to src/index.ts, jiti transpiled and ran the whole source tree on each
 * load: 8 s of the demo test's 20 s on a loaded machine, against 0.1 s.
 */
export const CONFIG_ALIAS = resolve(root, 'src/config/define-config.ts');

/** Runs the demo's voice turn on servers on free ports, with examples/voxroute.config.ts pointed at them. */
export async function demoTurn(forceMock: boolean): Promise<{ turn: VoiceTurn; mode: string }> {
  const servers = await startDemoServers({ ports: [0, 0], failMode: '503', forceMock });
  try {
    // The TS config reads the servers' URLs from the environment, as an EC2 deployment would.
    process.env.EC2_A_URL = servers.baseUrls[0];
    process.env.EC2_B_URL = servers.baseUrls[1];
    const config = await loadConfig(resolve(root, 'examples/voxroute.config.ts'), {
      alias: { voxroute: CONFIG_ALIAS },
    }).finally(() => {
      delete process.env.EC2_A_URL;
      delete process.env.EC2_B_URL;
    });
    const router = createRouter(config);
    try {
      const turn = await runVoiceTurn(router, resolve(root, 'test/fixtures/jfk-16k-s16le.wav'));
      return { turn, mode: servers.mode };
    } finally {
      await router.close();
    }
  } finally {
    await servers.close();
  }
}

/** The failing server was tried first at every stage, answered 503, and the healthy one served. */
export function expectFallbackAtEveryStage(turn: VoiceTurn): void {
  expect(turn.stages.map((s) => s.stage)).toEqual(['stt', 'chat', 'tts']);
  for (const { result } of turn.stages) {
    expect(result.provider).toBe('ec2-b');
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['ec2-a', 'failed'],
      ['ec2-b', 'success'],
    ]);
    const error = result.attempts[0]!.error;
    expect(ProviderError.isInstance(error) && error.status).toBe(503);
  }
}

/** Decodes s16le samples and gives their RMS in full-scale units [0, 1]. */
export function rms(pcm: Uint8Array): number {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  let sum = 0;
  for (let i = 0; i + 1 < pcm.byteLength; i += 2) sum += (view.getInt16(i, true) / 32768) ** 2;
  return Math.sqrt(sum / (pcm.byteLength / 2));
}

/** Reads back a WAV file's format and data. */
export async function readBack(wav: Uint8Array) {
  const reader = readWav(
    (async function* () {
      yield wav;
    })(),
  );
  const parts: Uint8Array[] = [];
  for await (const d of reader.data) parts.push(d);
  return { format: await reader.format, data: Buffer.concat(parts) };
}
