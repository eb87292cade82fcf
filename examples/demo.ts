/**
 * The voxroute demo (`npm run demo`): a real voice turn routed across two self-hosted
 * OpenAI-compatible servers on loopback, one of which fails.
 *
 *   node --import jiti/register examples/demo.ts [--mock] [--fail-mode 503|reset|stall] [--out out/reply.wav]
 *
 * Speech in (examples/assets/jfk-16k-s16le.wav) -> stt() -> chat() -> tts() -> out/reply.wav.
 * Uses espeak-ng and pocketsphinx when installed, the testing kit's mocks otherwise.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRouter, durationMs, encodeWav, loadConfig } from 'voxroute';
import { describeStage } from './demo/report.js';
import { startDemoServers } from './demo/servers.js';
import { runVoiceTurn } from './demo/voice-turn.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    mock: { type: 'boolean', default: false },
    'fail-mode': { type: 'string', default: '503' },
    out: { type: 'string', default: 'out/reply.wav' },
  },
});
const failMode = values['fail-mode'];
if (failMode !== '503' && failMode !== 'reset' && failMode !== 'stall') {
  console.error(`--fail-mode must be 503, reset or stall, not '${failMode}'`);
  process.exit(2);
}

const config = await loadConfig(resolve(here, 'voxroute.config.ts'), {
  alias: { voxroute: resolve(here, '../src/index.ts') },
});
const ports = ['ec2-a', 'ec2-b'].map((name) => {
  const provider = config.providers[name];
  if (!provider || !('baseUrl' in provider))
    throw new Error(`examples/voxroute.config.ts has no provider '${name}'`);
  return Number(new URL(provider.baseUrl).port);
}) as [number, number];

const servers = await startDemoServers({ ports, failMode, forceMock: values.mock });
console.log(
  servers.mode === 'engines'
    ? 'Servers: two self-hosted OpenAI-compatible servers (espeak-ng, pocketsphinx) on loopback.'
    : `Servers: the testing kit's OpenAI-compatible mocks on loopback${
        servers.missing.length
          ? ` (for real speech engines: sudo apt-get install -y ${servers.missing.join(' ')})`
          : ' (--mock)'
      }.`,
);
console.log(
  `ec2-a (port ${ports[0]}) is scripted to fail with '${failMode}'; ec2-b (port ${ports[1]}) is healthy.\n`,
);

const router = createRouter(config);
router.on('fallback', (e) =>
  console.log(`  [${e.capability}] ${e.provider} failed, falling back to ${e.next}`),
);
try {
  const turn = await runVoiceTurn(router, resolve(here, 'assets/jfk-16k-s16le.wav'));
  console.log(`\nTranscript: ${turn.transcript}`);
  console.log(`Reply:      ${turn.reply}`);
  const out = resolve(values.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, encodeWav(turn.format, turn.audio));
  console.log(
    `Audio:      ${out} (${turn.format.encoding}, ${turn.format.sampleRate} Hz, ${(durationMs(turn.format, turn.audio.byteLength) / 1000).toFixed(2)} s)\n`,
  );
  for (const stage of turn.stages) console.log(describeStage(stage.stage, stage.result).join('\n'));
} finally {
  await router.close();
  await servers.close();
}
