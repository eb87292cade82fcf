import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { RESOLVED_ESPEAK_TTS } from './helpers.js';

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
// The example imports defineConfig from 'voxroute'; point that at the source, not a build.
const alias = { voxroute: fileURLToPath(new URL('../../src/config/index.ts', import.meta.url)) };

describe('examples/voxroute.config.*', () => {
  it('the TypeScript and YAML demo configs load to the same resolved config', async () => {
    const fromTs = await loadConfig(example('voxroute.config.ts'), { alias, env: {} });
    const fromYaml = await loadConfig(example('voxroute.config.yaml'), { env: {} });
    expect(fromYaml).toEqual(fromTs);
    expect(Object.keys(fromTs.providers)).toEqual(['ec2-a', 'ec2-b']);
    expect(fromTs.providers['ec2-b']).toEqual({
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:8802/v1',
      headers: {},
      chat: { models: { fast: 'voxroute-echo' } },
      tts: RESOLVED_ESPEAK_TTS,
      stt: { model: 'pocketsphinx', streaming: true },
    });
    for (const capability of ['tts', 'stt', 'chat'] as const) {
      expect(fromTs.routes[capability]).toMatchObject({
        capability,
        providers: ['ec2-a', 'ec2-b'],
        strategy: 'latency',
      });
    }
  });
});
