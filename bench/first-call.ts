/**
 * First-call benchmark: the time to first chunk (TTFC) of the first call of a process, with the
 * BUILT package (dist/), as users get it.
 *
 * Run after `npm run build`: `node scripts/run-ts.mjs bench/first-call.ts [--runs N]`.
 *
 * Each sample is a fresh `node` process that starts a loopback server speaking the provider's
 * stream (OpenAI chat chunks, or Anthropic Messages events), imports voxroute, creates a router
 * (untimed), then times `router.chat()` up to its first text delta. The same is measured with
 * zod already loaded before the call (`require('zod')`), which is what the first call cost while
 * the first wire-message parse loaded zod; the difference is one-time work on the call's clock.
 * Targets run round-robin, N rounds (default 9), so that a noisy moment hits all alike.
 *
 * Target: the first call's TTFC is within 5 ms of the TTFC with zod preloaded (zod, about 70 to
 * 100 ms to load, is not loaded on a call's clock; docs/decisions.md "No zod on the first
 * call").
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { fmt, summarize } from './stats.js';

const args = benchArgs(import.meta.url, { runs: { type: 'string', default: '9' } });
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`--runs must be a positive integer, got ${args.runs}`);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const OPENAI_BODY = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })}\n\ndata: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const ANTHROPIC_BODY = [
  ev('message_start', { message: { usage: { input_tokens: 3, output_tokens: 1 } } }),
  ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hi' } }),
  ev('content_block_stop', { index: 0 }),
  ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
  ev('message_stop', {}),
].join('');

interface Target {
  label: string;
  kind: 'openai-compatible' | 'anthropic';
  preloadZod: boolean;
}

function sample(target: Target): number {
  const body = target.kind === 'anthropic' ? ANTHROPIC_BODY : OPENAI_BODY;
  const provider =
    target.kind === 'anthropic'
      ? `{ kind: 'anthropic', apiKey: 'k', baseUrl: url, chat: { models: { f: 'm' } } }`
      : `{ kind: 'openai-compatible', baseUrl: url + '/v1', chat: { models: { f: 'm' } } }`;
  const code = `
    import http from 'node:http';
    import { createRequire } from 'node:module';
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end(${JSON.stringify(body)}); });
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const url = 'http://127.0.0.1:' + server.address().port;
    const m = await import('voxroute');
    const router = m.createRouter({ providers: { a: ${provider} }, routes: { chat: { providers: ['a'] } } });
    await router.warmup();
    ${target.preloadZod ? "createRequire(import.meta.url)('zod');" : ''}
    const t0 = performance.now();
    let ttfc;
    for await (const e of router.chat({ messages: [{ role: 'user', content: 'q' }], model: 'f' })) {
      if (ttfc === undefined && e.type === 'text-delta') ttfc = performance.now() - t0;
    }
    await router.close();
    server.close();
    process.stdout.write(String(ttfc));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms))
    throw new Error(`${target.label}: ${child.stderr || `exit ${child.status}`}`);
  return ms;
}

function main(): void {
  if (!existsSync(resolve(root, 'dist/index.js'))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const targets: Target[] = [];
  for (const kind of ['openai-compatible', 'anthropic'] as const) {
    targets.push({ label: `${kind}: first call`, kind, preloadZod: false });
    targets.push({ label: `${kind}: first call, zod preloaded`, kind, preloadZod: true });
  }
  const samples = new Map(targets.map((t) => [t.label, [] as number[]]));
  for (let round = 0; round < RUNS; round++) {
    for (const t of targets) samples.get(t.label)?.push(sample(t));
  }
  console.log(`first-call TTFC, dist/, ${RUNS} fresh processes per row (ms)`);
  console.log(`${'target'.padEnd(44)}${'median'.padStart(9)}${'p90'.padStart(9)}${'min'.padStart(9)}`);
  for (const t of targets) {
    const s = summarize(samples.get(t.label) ?? []);
    console.log(`${t.label.padEnd(44)}${fmt(s.median, 1)}${fmt(s.p90, 1)}${fmt(s.min, 1)}`);
  }
  for (const kind of ['openai-compatible', 'anthropic']) {
    const cold = summarize(samples.get(`${kind}: first call`) ?? []).median;
    const warm = summarize(samples.get(`${kind}: first call, zod preloaded`) ?? []).median;
    const extra = cold - warm;
    console.log(
      `${kind}: first call pays ${extra.toFixed(1)} ms over zod preloaded (ratio ${(cold / warm).toFixed(2)}): target <= 5 ms ${extra <= 5 ? 'met' : 'not met'}`,
    );
  }
}

main();
