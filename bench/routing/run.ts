/**
 * Routing-quality benchmark (issue 6, "Benchmark (bench/routing)"): how close voxroute's
 * choice of provider gets to an oracle, against a static priority list and mean routing.
 *
 * Run: `node scripts/run-ts.mjs bench/routing/run.ts` (about 2 minutes), options:
 *   --requests N   requests in the scenario                              (default 600)
 *   --rate R       mean arrival rate, requests per second (open loop)    (default 25)
 *   --seed S       seed of the scenario and of the router's random draws (default 1)
 *   --only LIST    comma-separated strategies (default all): auto,latency-hedge,latency,mean,p2c,priority
 *   --svg FILE     where to write the plot; '' for none                  (default docs/routing-benchmark.svg)
 *   --json FILE    also write every call, the scenario and the score trace as JSON
 *   --markdown     also print the tables as markdown
 *   --clock MODE   'loopback' (real time over loopback sockets, default) or 'virtual' (exact:
 *                  virtual time, mocks in-process; see virtual-time.ts)
 *   --scenario S   'spread' (default), 'close', 'stall10' or 'stall20' (scenario.ts PROFILES)
 *
 * Issue 13's multi-seed run of every scenario, with its targets: suite.ts.
 *
 * Method. Three OpenAI-compatible TTS mocks (voxroute/testing) run on loopback ports. The
 * scenario (scenario.ts) fixes, before anything runs, what each provider does with request i:
 * its latency to the response headers and first audio, or a 503. Each request carries its
 * index in its text ("req 17") and each mock's script reads it back, so a mock plays the
 * scenario whatever order requests reach it in, and a hedge or fallback sent to another
 * provider meets that provider's latency for the same request. Requests start open-loop at the
 * scenario's arrival times, so several are in flight at once. Each strategy runs alone, in
 * turn, on a fresh router and fresh mocks, with the router's random draws seeded alike. The
 * caller measures time to first chunk from just before `router.tts()` to the first audio chunk
 * in hand (fallback and hedge time included), then reads the stream to its end. A call that
 * throws counts as a failure, and as slower than any answer in the quantiles.
 *
 * Every strategy runs through the same router, so circuit breakers, first-chunk deadlines
 * and fallback are the same for all; only the choice of provider differs:
 * - latency-hedge: route strategy `latency` with `hedge: { after: 'p95', maxShare: 0.1 }`;
 * - latency: route strategy `latency`, no hedging;
 * - mean: lowest mean of each provider's last 10 samples, failures counted as samples,
 *   unmeasured providers at 0 (the LiteLLM behaviour, mean-routing.ts), applied through one
 *   `priority` route per order of the three providers;
 * - priority: route strategy `priority` over [a, b, c]: fallback on error only (the LiveKit
 *   FallbackAdapter / Pipecat behaviour).
 * Two references are computed, not run: the oracle (per request, the fastest provider that
 * does not fail) and an informed router (scenario.ts `informedRouterMs`).
 *
 * Machine noise. The caller's figures include whatever the machine adds (CPU contention,
 * garbage collection, loopback HTTP). The report therefore also shows each call "without
 * noise": the winning attempt's measured start plus its provider's scripted latency, and the
 * noise itself (measured - scripted) per strategy.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchArgs } from '../args.js';
import { describe, diagnose } from './diagnose.js';
import {
  type ClockMode,
  loopbackFloor,
  runStrategy,
  STRATEGIES,
  type StrategyName,
  type StrategyResult,
} from './execute.js';
import { renderPlot } from './plot.js';
import {
  buildRows,
  checkTargets,
  LABELS,
  markdownTable,
  plainTable,
  type RowKey,
  resultTable,
  type View,
} from './report.js';
import { buildScenario, PROFILES, summaryOf } from './scenario.js';

const args = benchArgs(import.meta.url, {
  requests: { type: 'string', default: '600' },
  rate: { type: 'string', default: '25' },
  seed: { type: 'string', default: '1' },
  only: { type: 'string', default: '' },
  svg: { type: 'string', default: 'docs/routing-benchmark.svg' },
  json: { type: 'string', default: '' },
  markdown: { type: 'boolean', default: false },
  clock: { type: 'string', default: 'loopback' },
  scenario: { type: 'string', default: 'spread' },
});

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${value}`);
  return n;
}

const requests = Math.round(positive(args.requests, 'requests'));
const rate = positive(args.rate, 'rate');
const seed = Math.round(positive(args.seed, 'seed'));
const only = args.only ? args.only.split(',').map((s) => s.trim()) : [...STRATEGIES];
for (const s of only) {
  if (!(STRATEGIES as readonly string[]).includes(s)) throw new Error(`--only: unknown strategy '${s}'`);
}
const chosen = STRATEGIES.filter((s) => only.includes(s));
if (args.clock !== 'loopback' && args.clock !== 'virtual') {
  throw new Error(`--clock must be 'loopback' or 'virtual', got ${args.clock}`);
}
const mode: ClockMode = args.clock;

const profile = PROFILES[args.scenario];
if (!profile)
  throw new Error(`--scenario must be one of ${Object.keys(PROFILES).join(', ')}, got ${args.scenario}`);
const scenario = buildScenario({ requests, seed, ratePerSecond: rate, profile });
console.log(`voxroute routing benchmark: ${requests} requests at ${rate}/s (open loop), seed ${seed}`);
for (const line of summaryOf(profile)) console.log(`  ${line}`);
console.log(`  b's bursts (request indexes): ${scenario.bursts.map(([s, e]) => `${s}-${e - 1}`).join(', ')}`);
console.log(`  requests in c's tail: ${scenario.tailRequests.length}`);
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);

const floor = mode === 'loopback' ? await loopbackFloor() : undefined;
if (floor) {
  console.log(
    `loopback floor (router + HTTP to a mock that answers at once): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms`,
  );
} else {
  console.log('virtual time: exact figures, no machine noise, no router or HTTP overhead');
}

const results: StrategyResult[] = [];
for (const name of chosen) {
  const r = await runStrategy(name as StrategyName, scenario, seed, mode);
  console.log(
    `  ran ${name}: ${(r.wallMs / 1000).toFixed(1)} s, ${r.meanInFlight.toFixed(1)} calls in flight on average`,
  );
  results.push(r);
}

const rows = buildRows(scenario, results);
const views: Array<[View, string]> = [
  ['measured', 'time to first chunk as the caller measured it'],
  ['scripted', 'the same calls without machine noise (winning attempt start + scripted latency)'],
];
for (const [view, title] of views) {
  console.log(`\n${title}:\n`);
  console.log(plainTable(resultTable(rows, view)));
}
console.log('\nwhere the time goes:');
for (const r of results) {
  console.log(`  ${LABELS[r.name]}:`);
  for (const line of describe(diagnose(scenario, r), r.name.startsWith('latency')))
    console.log(`    ${line}`);
}

const checks = views.map(([view]) => checkTargets(rows, view, requests));
console.log('\ntargets of issue 6 (measured | without noise):');
checks[0]!.forEach((c, i) => {
  const other = checks[1]![i]!;
  const mark = (t: { met: boolean; target: boolean }) =>
    !t.target ? 'info   ' : t.met ? 'MET    ' : 'NOT MET';
  console.log(`  ${mark(c)} | ${mark(other)}  ${c.label}: ${c.detail} | ${other.detail}`);
});

if (args.markdown) {
  for (const [view, title] of views) console.log(`\n${title}:\n\n${markdownTable(resultTable(rows, view))}`);
  console.log('\n| target | measured | met | without noise | met |\n| --- | ---: | --- | ---: | --- |');
  checks[0]!.forEach((c, i) => {
    const other = checks[1]![i]!;
    console.log(
      `| ${c.label} | ${c.detail} | ${!c.target ? '-' : c.met ? 'yes' : 'no'} | ${other.detail} | ${!other.target ? '-' : other.met ? 'yes' : 'no'} |`,
    );
  });
}

if (args.svg) {
  const colors: Record<RowKey, string> = {
    oracle: '#444444',
    informed: '#a6a6a6',
    auto: '#00441b',
    'latency-hedge': '#1b7837',
    p2c: '#e7298a',
    latency: '#7fbf7b',
    mean: '#d95f02',
    priority: '#7570b3',
  };
  const order: RowKey[] = [
    'oracle',
    'informed',
    'auto',
    'latency-hedge',
    'latency',
    'mean',
    'p2c',
    'priority',
  ];
  const series = order.flatMap((key) => {
    const row = rows.find((r) => r.key === key);
    return row
      ? [
          {
            label: LABELS[key],
            color: colors[key],
            ttfcMs: row.measured,
            ...(row.noise ? { scriptedMs: row.scripted } : {}),
          },
        ]
      : [];
  });
  const title = `Routing benchmark (${mode === 'virtual' ? 'virtual time' : 'loopback, real time'}): time to first chunk of ${requests} calls, seed ${seed}`;
  writeFileSync(args.svg, renderPlot(title, series));
  console.log(`\nplot written to ${args.svg}`);
}

if (args.json) {
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  writeFileSync(
    args.json,
    JSON.stringify({
      requests,
      rate,
      seed,
      clock: mode,
      floor,
      scenario: {
        arrivalsMs: scenario.arrivalsMs,
        bursts: scenario.bursts,
        tailRequests: scenario.tailRequests,
        oracleMs: scenario.oracleMs,
        outcomes: scenario.outcomes,
      },
      results: results.map((r) => ({
        ...r,
        calls: r.calls.map((c) => ({ ...c, ttfcMs: finite(c.ttfcMs) })),
      })),
    }),
  );
  console.log(`figures written to ${args.json}`);
}
