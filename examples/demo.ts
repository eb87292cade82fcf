/**
 * The voxroute demo (`npm run demo`): a conversation of four voice turns through
 * `voiceTurn()`, routed across two OpenAI-compatible servers (the testing kit's mocks) on free
 * loopback ports. One server is the fastest at first, then goes wrong partway: its chat stops
 * answering, its transcription fails from its second call, its speech resets mid-reply.
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
  'ec2-a starts fastest, then goes wrong: chat silent from its 2nd call; stt 503 from its 2nd call; tts reset in its 3rd request.\n' +
    'Each failure moves that stage of the turn to ec2-b; latency routing then decides whether ec2-a is asked again.\n',
);
/** One line for an error: its class and message, never a stack. */
const oneLine = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

let demo: Awaited<ReturnType<typeof runConversationDemo>>;
try {
  demo = await runConversationDemo({
    examplesDir: here,
    configAlias: resolve(here, fromDist ? '../dist/index.js' : '../src/index.ts'),
    onFallback: (e) =>
      console.log(
        `  [${e.capability}] ${e.provider} failed (${(e.error as { code?: string }).code ?? 'error'}), going on with ${e.next}`,
      ),
  });
} catch (error) {
  console.error(`demo failed: ${oneLine(error)}`);
  process.exit(1);
}
console.log('');
const byNumber = new Map(demo.turns.map((t) => [t.turn, t]));
const failedByNumber = new Map(demo.failed.map((f) => [f.turn, f]));
for (const [k, line] of SCRIPT.entries()) {
  const t = byNumber.get(k + 1);
  if (t) {
    console.log(`turn ${k + 1}  caller: ${t.result.transcript}`);
    console.log(`        agent:  ${t.result.reply}`);
  } else {
    console.log(`turn ${k + 1}  caller: ${line.said}`);
    console.log(`        failed: ${oneLine(failedByNumber.get(k + 1)?.error)}`);
  }
}
const results = demo.turns.map((t) => t.result);
const numbers = demo.turns.map((t) => t.turn);
console.log(`\n${timelineTable(results, numbers)}\n`);
const out = resolve(values.out);
await mkdir(out, { recursive: true });
await writeFile(resolve(out, 'timeline.svg'), timelineSvg(results, numbers));
for (const t of demo.turns) {
  await writeFile(
    resolve(out, `reply-${t.turn}.wav`),
    encodeWav({ encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 }, t.audio),
  );
}
console.log(`Wrote ${resolve(out, 'timeline.svg')} and ${demo.turns.length} reply-N.wav`);
if (demo.failed.length > 0) {
  console.error(`${demo.failed.length} of ${SCRIPT.length} turns failed (see above)`);
  process.exitCode = 1;
}
