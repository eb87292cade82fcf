/**
 * Issue 13's routing benchmark: every scenario over several seeds, with side by side in each run
 * the oracle, the informed reference (informed.ts), static priority, mean routing, P2C
 * peak-EWMA and voxroute with `hedge: { after: 'auto' }`, and the issue's targets per seed.
 *
 * Run: `node scripts/run-ts.mjs bench/routing/suite.ts` (virtual time, a few minutes), options:
 *   --scenarios LIST  comma-separated profiles      (default spread,close,stall10,stall20)
 *   --seeds LIST      comma-separated seeds         (default 1,2,3,4,5)
 *   --requests N      requests per run              (default 600)
 *   --rate R          arrivals per second           (default 25)
 *   --only LIST       strategies to run             (default auto,mean,p2c,priority)
 *   --clock MODE      'virtual' (default: exact) or 'loopback' (real time)
 *   --svg FILE        plot of one run               (default docs/routing-tail.svg; '' for none)
 *   --plot RUN        which run to plot, scenario:seed (default stall20:1)
 *   --markdown        also print the tables as markdown
 *
 * Targets, for voxroute `auto` in every seed of every scenario: p50 <= 1.15x the oracle; p99 <=
 * 1.3x the informed reference; p99 >= 2x better than priority and >= 1.5x better than mean;
 * extra provider requests <= 10%; 0 failed calls. A target the informed reference itself
 * misses is printed as infeasible (it stays in the table).
 */
import { writeFileSync } from 'node:fs';
import { benchArgs } from '../args.js';
import {
  type ClockMode,
  runStrategy,
  STRATEGIES,
  type StrategyName,
  type StrategyResult,
} from './execute.js';
import { renderPlot } from './plot.js';
import { tailOf } from './quantiles.js';
import { buildRows, LABELS, markdownTable, plainTable, type Row, type RowKey } from './report.js';
import { buildScenario, PROFILES } from './scenario.js';

const args = benchArgs(import.meta.url, {
  scenarios: { type: 'string', default: 'spread,close,stall10,stall20' },
  seeds: { type: 'string', default: '1,2,3,4,5' },
  requests: { type: 'string', default: '600' },
  rate: { type: 'string', default: '25' },
  only: { type: 'string', default: 'auto,mean,p2c,priority' },
  clock: { type: 'string', default: 'virtual' },
  svg: { type: 'string', default: 'docs/routing-tail.svg' },
  plot: { type: 'string', default: 'stall20:1' },
  markdown: { type: 'boolean', default: false },
});

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const scenarios = list(args.scenarios);
for (const s of scenarios) if (!PROFILES[s]) throw new Error(`--scenarios: unknown scenario '${s}'`);
const seeds = list(args.seeds).map(Number);
if (seeds.some((s) => !Number.isInteger(s) || s <= 0)) throw new Error('--seeds: positive integers');
const requests = Number(args.requests);
const rate = Number(args.rate);
const only = list(args.only) as StrategyName[];
for (const s of only) if (!(STRATEGIES as readonly string[]).includes(s)) throw new Error(`--only: '${s}'`);
if (!only.includes('auto')) throw new Error("--only must include 'auto' (the targets are about it)");
if (args.clock !== 'virtual' && args.clock !== 'loopback') throw new Error('--clock: virtual or loopback');
const mode: ClockMode = args.clock;

/** One target's outcome in one run. */
type Status = 'met' | 'not met' | 'infeasible';
interface Check {
  label: string;
  status: Status;
  detail: string;
}

/** Issue 13's targets for one run's rows (measured view). */
function checks(rows: readonly Row[]): Check[] {
  const tail = (k: RowKey) => {
    const r = rows.find((x) => x.key === k);
    return r ? tailOf(r.measured) : undefined;
  };
  const auto = tail('auto')!;
  const oracle = tail('oracle')!;
  const informed = tail('informed')!;
  const autoRow = rows.find((r) => r.key === 'auto')!;
  const out: Check[] = [];
  const add = (label: string, met: boolean, feasible: boolean, detail: string) =>
    out.push({ label, status: met ? 'met' : feasible ? 'not met' : 'infeasible', detail });
  const r50 = auto.p50 / oracle.p50;
  add('p50 <= 1.15x oracle', r50 <= 1.15, informed.p50 / oracle.p50 <= 1.15, `${r50.toFixed(2)}x`);
  const r99 = auto.p99 / informed.p99;
  add('p99 <= 1.3x informed', r99 <= 1.3, true, `${r99.toFixed(2)}x`);
  for (const [base, factor] of [
    ['priority', 2],
    ['mean', 1.5],
  ] as const) {
    const b = tail(base);
    if (!b) continue;
    const f = b.p99 / auto.p99;
    add(
      `p99 >= ${factor}x better than ${base}`,
      f >= factor,
      b.p99 / informed.p99 >= factor,
      `${f.toFixed(2)}x (informed ${(b.p99 / informed.p99).toFixed(2)}x)`,
    );
  }
  const extra = (autoRow.extra ?? 0) / requests;
  add('extra requests <= 10%', extra <= 0.1, true, `${(extra * 100).toFixed(1)}%`);
  add('0 failed calls', autoRow.failed === 0, true, String(autoRow.failed));
  return out;
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'fail');
const header = [
  'scenario',
  'seed',
  'oracle p50/p99',
  'informed p50/p99',
  'auto p50/p99',
  'priority p99',
  'mean p99',
  'P2C p99',
  'auto extra (hedges)',
  'informed hedges',
  'auto failed',
];
const table: string[][] = [header];
const targetTable: string[][] = [['scenario', 'seed', 'target', 'status', 'figure']];
const tally = new Map<string, Record<Status, number>>();
console.log(
  `voxroute routing suite (issue 13): ${requests} requests at ${rate}/s, ${mode} clock, seeds ${seeds.join(',')}`,
);
for (const name of scenarios) {
  for (const seed of seeds) {
    const scenario = buildScenario({ requests, seed, ratePerSecond: rate, profile: PROFILES[name]! });
    const results: StrategyResult[] = [];
    for (const s of only) results.push(await runStrategy(s, scenario, seed, mode));
    const rows = buildRows(scenario, results);
    const t = (k: RowKey) => {
      const r = rows.find((x) => x.key === k);
      return r ? tailOf(r.measured) : undefined;
    };
    const pair = (k: RowKey) => {
      const x = t(k);
      return x ? `${ms(x.p50)} / ${ms(x.p99)}` : '-';
    };
    const p99 = (k: RowKey) => {
      const x = t(k);
      return x ? ms(x.p99) : '-';
    };
    const auto = rows.find((r) => r.key === 'auto')!;
    table.push([
      name,
      String(seed),
      pair('oracle'),
      pair('informed'),
      pair('auto'),
      p99('priority'),
      p99('mean'),
      p99('p2c'),
      `${(((auto.extra ?? 0) / requests) * 100).toFixed(1)}% (${auto.hedges})`,
      `${(((rows.find((r) => r.key === 'informed')?.hedges ?? 0) / requests) * 100).toFixed(1)}%`,
      String(auto.failed),
    ]);
    for (const c of checks(rows)) {
      targetTable.push([name, String(seed), c.label, c.status, c.detail]);
      const counts = tally.get(c.label) ?? { met: 0, 'not met': 0, infeasible: 0 };
      counts[c.status]++;
      tally.set(c.label, counts);
    }
    console.log(`  ${name} seed ${seed}: auto p50/p99 ${pair('auto')} ms, informed ${pair('informed')} ms`);
    if (args.svg && args.plot === `${name}:${seed}`) {
      const colors: Partial<Record<RowKey, string>> = {
        oracle: '#444444',
        informed: '#a6a6a6',
        auto: '#1b7837',
        mean: '#d95f02',
        p2c: '#e7298a',
        priority: '#7570b3',
      };
      const series = rows
        .filter((r) => colors[r.key])
        .map((r) => ({ label: LABELS[r.key], color: colors[r.key]!, ttfcMs: r.measured }));
      writeFileSync(
        args.svg,
        renderPlot(
          `Routing (${mode} time), scenario ${name}, seed ${seed}: time to first audio of ${requests} calls`,
          series,
        ),
      );
      console.log(`  plot written to ${args.svg}`);
    }
  }
}

console.log(`\nresults (ms):\n\n${plainTable(table)}`);
console.log(`\ntargets per run:\n\n${plainTable(targetTable)}`);
console.log('\ntargets over all runs (met / not met / infeasible):');
for (const [label, c] of tally) console.log(`  ${label}: ${c.met} / ${c['not met']} / ${c.infeasible}`);
if (args.markdown) {
  console.log(`\n${markdownTable(table)}\n\n${markdownTable(targetTable)}`);
  console.log('\n| target | met | not met | infeasible |\n| --- | ---: | ---: | ---: |');
  for (const [label, c] of tally) console.log(`| ${label} | ${c.met} | ${c['not met']} | ${c.infeasible} |`);
}
