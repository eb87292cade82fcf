/**
 * The voxroute demo (`npm run demo`): a conversation of four voice turns through
 * `voiceTurn()`, routed across two OpenAI-compatible servers (the testing kit's mocks) on free
 * loopback ports. One server is the fastest at first, then goes wrong partway: its chat slows
 * down at every call, its transcription fails from its second call, its speech resets mid-reply.
 * Prints a per-turn timeline table and writes an SVG timeline (and each reply as WAV) to out/.
 *
 *   npm run demo                    (builds, then runs against the built package in dist/)
 *   node scripts/run-ts.mjs examples/demo.ts [--out out]   (against src/, no build)
 *
 * The single-turn demo on real speech engines: examples/demo/voice-turn.ts (test/engines).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeWav } from 'voxroute';
import { runConversationDemo } from './demo/conversation-demo.js';
import { SCRIPT } from './demo/conversation-servers.js';
import { timelineSvg, timelineTable } from './demo/timeline.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string', default: 'out' } } });
const fromDist = process.env.VOXROUTE_FROM === 'dist';

console.log(
  `voxroute demo: ${SCRIPT.length} voice turns, voxroute from ${fromDist ? 'dist/ (the built package)' : 'src/'}`,
);
console.log(
  'ec2-a starts fastest, then: chat 40 ms, 250 ms, then silent; stt 503 from its 2nd call; tts reset in its 3rd request.\n',
);
const demo = await runConversationDemo({
  examplesDir: here,
  configAlias: resolve(here, fromDist ? '../dist/index.js' : '../src/index.ts'),
  onFallback: (e) =>
    console.log(
      `  [${e.capability}] ${e.provider} failed (${(e.error as { code?: string }).code ?? 'error'}), going on with ${e.next}`,
    ),
});
console.log('');
for (const [i, t] of demo.turns.entries()) {
  console.log(`turn ${i + 1}  caller: ${t.result.transcript}`);
  console.log(`        agent:  ${t.result.reply}`);
}
console.log(`\n${timelineTable(demo.turns.map((t) => t.result))}\n`);
const out = resolve(values.out);
await mkdir(out, { recursive: true });
await writeFile(resolve(out, 'timeline.svg'), timelineSvg(demo.turns.map((t) => t.result)));
for (const [i, t] of demo.turns.entries()) {
  await writeFile(
    resolve(out, `reply-${i + 1}.wav`),
    encodeWav({ encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 }, t.audio),
  );
}
console.log(`Wrote ${resolve(out, 'timeline.svg')} and reply-1..${demo.turns.length}.wav`);
