/**
 * Cost of cutting tts() text into sentences and clauses, without network: whether it depends
 * on the length of the text.
 *
 * Run: `node scripts/run-ts.mjs bench/text-split.ts [--rounds N]` (default 5 rounds; the best
 * round of each side is kept).
 *
 * Sides, in one process, alternating every round:
 * - streamed text: CPU per token (process.cpuUsage) of the clause splitter over 2,000 and
 *   32,000 tokens of `' word'` with no clause or sentence end, and over 2,000 and 32,000 tokens
 *   of ordinary sentences. Target: 32,000 tokens cost at most 1.5x per token what 2,000 do.
 * - a text given whole (`TtsProgress`): wall time to the first sentence of a 1,300-character
 *   and of a 99,996-character text of short sentences, and heap growth over the long one read
 *   to its end. Targets: first sentence of the long text within 2x (+ 0.05 ms) of the short
 *   one; heap growth under 16 MB.
 */

import { TtsProgress } from '../src/routing/tts-progress.js';
import { ClauseSplitter } from '../src/text/clause-splitter.js';
import { benchArgs } from './args.js';

const args = benchArgs(import.meta.url, { rounds: { type: 'string', default: '5' } });
const rounds = Number(args.rounds);

function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function split(tokens: readonly string[], n: number): void {
  const s = new ClauseSplitter({ locale: 'en' });
  for (let i = 0; i < n; i++) s.push(tokens[i % tokens.length]!);
  s.end();
}

const UNPUNCTUATED = [' word'];
const SENTENCES =
  ' Sure, I can book that for you. The table for two is at eight tonight. Anything else?'.split(/(?= )/);

async function firstSentenceMs(text: string): Promise<number> {
  const start = performance.now();
  await new TtsProgress(text, 'en').sentence(0);
  return performance.now() - start;
}

const best: Record<string, number> = {};
const keep = (name: string, value: number) => {
  best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, value);
};
const short = 'Hello world. '.repeat(100);
const long = 'Hello world. '.repeat(7692);
for (let round = 0; round < rounds; round++) {
  for (const [name, tokens] of [
    ['unpunctuated', UNPUNCTUATED],
    ['sentences', SENTENCES],
  ] as const) {
    for (const n of [2000, 32_000]) keep(`${name} ${n}`, (cpuMs(() => split(tokens, n)) * 1000) / n);
  }
  keep('first short', await firstSentenceMs(short));
  keep('first long', await firstSentenceMs(long));
}

globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const progress = new TtsProgress(long, 'en');
for (let i = 0; (await progress.sentence(i)) !== undefined; i++);
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
for (const name of ['unpunctuated', 'sentences']) {
  const a = best[`${name} 2000`]!;
  const b = best[`${name} 32000`]!;
  console.log(
    `streamed ${name}: ${a.toFixed(2)} µs per token (2,000 tokens), ${b.toFixed(2)} µs (32,000), ratio ${(b / a).toFixed(2)}, target <= 1.5: ${verdict(b / a <= 1.5)}`,
  );
}
const s = best['first short']!;
const l = best['first long']!;
console.log(
  `text given whole: first sentence after ${s.toFixed(3)} ms (1,300 characters), ${l.toFixed(3)} ms (99,996), target <= 2x + 0.05 ms: ${verdict(l <= 2 * s + 0.05)}`,
);
console.log(
  `text given whole: heap growth reading 99,996 characters ${heapMb.toFixed(1)} MB, target < 16 MB: ${verdict(heapMb < 16)}`,
);
