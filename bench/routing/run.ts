/**
 * Routing-quality benchmark (issue 6, "Benchmark (bench/routing)"): how close voxroute's
 * provider choice gets to an oracle, against a static priority list and mean routing.
 *
 * Run: `node scripts/run-ts.mjs bench/routing/run.ts`, options:
 *   --requests N   requests in the scenario                              (default 600)
 *   --rate R       mean arrival rate, requests per second (open loop)    (default 25)
 *   --seed S       seed of the scenario and of the router's random draws (default 1)
 *   --only LIST    comma-separated strategies to run (default all): latency-hedge,latency,mean,priority
 *   --svg FILE     where to write the plot; '' for none                  (default docs/routing-benchmark.svg)
 *   --json FILE    also write every call's figures as JSON
 *   --markdown     also print the results as a markdown table
 *
 * Method. Three OpenAI-compatible TTS mocks (voxroute/testing) run on loopback ports. The
 * scenario (scenario.ts) fixes, before anything runs, what each provider does with request i:
 * its latency to the response headers and first audio, or a 503. Each request carries its
 * index in its text ("req 17") and each mock's script reads it back, so the mocks play the
 * scenario whatever order the requests reach them in, and a hedge or fallback sent to another
 * provider meets that provider's latency for the same request. Requests start open-loop at
 * the scenario's arrival times, so several are in flight at once. Each strategy runs alone, in
 * turn, on a fresh router and fresh mocks; the router's random draws use the same seed. The
 * caller measures time to first chunk from just before `router.tts()` to the first audio chunk
 * in hand (fallback and hedge time included), then reads the stream to its end. A call that
 * throws counts as a failure and as slower than any answer in the quantiles. The oracle is
 * computed, not run: per request, the latency of the fastest provider that does not fail.
 *
 * Strategies (every one runs through the same router, so breakers, first-chunk deadlines and
 * fallback are the same; only the choice of provider differs):
 * - latency-hedge: route strategy `latency` with `hedge: { after: 'p95', maxShare: 0.1 }`;
 * - latency: route strategy `latency`, no hedging;
 * - mean: the lowest mean of each provider's last 10 samples, failures counted as samples,
 *   unmeasured providers at 0 (the LiteLLM behaviour, see mean-routing.ts), applied through
 *   one `priority` route per order of the three providers;
 * - priority: route strategy `priority`, order [a, b, c] (fallback on error only, the
 *   LiveKit FallbackAdapter / Pipecat behaviour).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import {
  AllProvidersFailedError,
  type Attempt,
  type AudioFormat,
  createRouter,
  type RouterConfig,
  VoxrouteError,
} from 'voxroute';
import {
  type CallContext,
  createOpenAiCompatibleMock,
  type MockScript,
  type OpenAiCompatibleMock,
  startMockServer,
} from 'voxroute/testing';
import { MeanRouting } from './mean-routing.js';
import { renderPlot } from './plot.js';
import { mulberry32 } from './prng.js';
import { type Tail, tailOf } from './quantiles.js';
import { buildScenario, PROVIDERS, type ProviderName, SCENARIO_SUMMARY, type Scenario } from './scenario.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '600' },
    rate: { type: 'string', default: '25' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string', default: '' },
    svg: { type: 'string', default: 'docs/routing-benchmark.svg' },
    json: { type: 'string', default: '' },
    markdown: { type: 'boolean', default: false },
  },
});

const STRATEGIES = ['latency-hedge', 'latency', 'mean', 'priority'] as const;
type StrategyName = (typeof STRATEGIES)[number];

const LABELS: Record<StrategyName | 'oracle', string> = {
  oracle: 'oracle',
  'latency-hedge': 'voxroute latency + hedge',
  latency: 'voxroute latency',
  mean: 'mean of recent (LiteLLM-like)',
  priority: 'priority [a,b,c] (LiveKit/Pipecat-like)',
};
const COLORS: Record<StrategyName | 'oracle', string> = {
  oracle: '#444444',
  'latency-hedge': '#1b7837',
  latency: '#7fbf7b',
  mean: '#d95f02',
  priority: '#7570b3',
};

const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
const HEDGE = { after: 'p95', maxShare: 0.1 } as const;

/** One call as the caller saw it. */
interface CallRecord {
  index: number;
  /** Time to first chunk in ms, Infinity when the call threw. */
  ttfcMs: number;
  /** The provider that served it ('' when it failed). */
  provider: string;
  /** Providers tried, in order: outcome, start (ms since the call started), time to first chunk. */
  attempts: Array<{ provider: string; outcome: string; startedAtMs: number; ttfcMs?: number }>;
  error?: string;
}

/** One strategy's run. */
interface StrategyResult {
  name: StrategyName;
  calls: CallRecord[];
  /** Requests each mock received (hedges and fallbacks included). */
  received: Record<ProviderName, number>;
  hedges: number;
  /** Mean number of calls in flight over the run. */
  meanInFlight: number;
  wallMs: number;
  /** The router's scores, read every {@link TRACE_EVERY_MS} ms. */
  trace: TracePoint[];
}

/** One reading of a provider's figures in `router.stats()`. */
interface TracePoint {
  /** ms since the run started. */
  tMs: number;
  provider: string;
  ewmaMs: number | undefined;
  p50Ms: number | undefined;
  p95Ms: number | undefined;
  inFlight: number;
  breaker: string;
}

const TRACE_EVERY_MS = 250;

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${value}`);
  return n;
}

/** The mock script of `provider` for a call: the scenario's latency (and 503) for its request. */
function scriptOf(scenario: Scenario, provider: ProviderName) {
  return (context: CallContext): MockScript => {
    const body = context.request.body as { input?: unknown } | undefined;
    const match = typeof body?.input === 'string' ? /^req (\d+)$/.exec(body.input) : null;
    const outcome = match ? scenario.outcomes[provider][Number(match[1])] : undefined;
    if (!outcome) return {};
    return outcome.fails
      ? { headersDelayMs: outcome.latencyMs, failTimes: context.call, failStatus: 503 }
      : { headersDelayMs: outcome.latencyMs };
  };
}

/** The config of a strategy's router over the three mock origins. */
function configOf(strategy: StrategyName, urls: Record<ProviderName, string>): RouterConfig {
  const provider = (url: string) => ({
    kind: 'openai-compatible' as const,
    baseUrl: `${url}/v1`,
    tts: { model: 'bench-tts', voices: { agent: 'alloy' } },
  });
  const providers = Object.fromEntries(PROVIDERS.map((p) => [p, provider(urls[p])]));
  const routes: RouterConfig['routes'] = {};
  if (strategy === 'mean') {
    for (const order of permutations([...PROVIDERS])) {
      routes[`tts-${order.join('')}`] = { capability: 'tts', providers: order, strategy: 'priority' };
    }
  } else {
    routes.tts = {
      providers: [...PROVIDERS],
      strategy: strategy === 'priority' ? 'priority' : 'latency',
      ...(strategy === 'latency-hedge' ? { hedge: HEDGE } : {}),
    };
  }
  return { providers, routes } as RouterConfig;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

function attemptRecord(a: Attempt): CallRecord['attempts'][number] {
  return {
    provider: a.provider,
    outcome: a.outcome,
    startedAtMs: a.startedAtMs,
    ...(a.timeToFirstChunkMs !== undefined ? { ttfcMs: a.timeToFirstChunkMs } : {}),
  };
}

function attemptsOf(error: unknown): Attempt[] {
  return AllProvidersFailedError.isInstance(error) ? [...error.attempts] : [];
}

/** Runs the whole scenario with one strategy on a fresh router and fresh mocks. */
async function runStrategy(name: StrategyName, scenario: Scenario, seed: number): Promise<StrategyResult> {
  const mocks = {} as Record<ProviderName, OpenAiCompatibleMock>;
  for (const p of PROVIDERS)
    mocks[p] = createOpenAiCompatibleMock({ script: { speech: scriptOf(scenario, p) } });
  const servers = await Promise.all(PROVIDERS.map((p) => startMockServer({ provider: mocks[p] })));
  const urls = Object.fromEntries(PROVIDERS.map((p, i) => [p, servers[i]!.url])) as Record<
    ProviderName,
    string
  >;
  const router = createRouter(configOf(name, urls), { random: mulberry32(seed) });
  let hedges = 0;
  router.on('hedge', () => {
    hedges++;
  });
  const mean = new MeanRouting(PROVIDERS);
  await router.warmup();

  const calls: CallRecord[] = new Array(scenario.requests);
  let inFlight = 0;
  let inFlightArea = 0;
  let lastChange = performance.now();
  const track = (delta: number) => {
    const now = performance.now();
    inFlightArea += inFlight * (now - lastChange);
    lastChange = now;
    inFlight += delta;
  };

  const call = async (index: number): Promise<void> => {
    const route = name === 'mean' ? `tts-${mean.order().join('')}` : 'tts';
    track(1);
    const t0 = performance.now();
    let ttfcMs = Number.POSITIVE_INFINITY;
    const stream = router.tts({ text: `req ${index}`, voice: 'agent', route, format: PCM_24K });
    try {
      for await (const chunk of stream) {
        if (ttfcMs === Number.POSITIVE_INFINITY && chunk.data.byteLength > 0) ttfcMs = performance.now() - t0;
      }
      const result = await stream.result;
      if (name === 'mean') mean.record(result.attempts);
      calls[index] = {
        index,
        ttfcMs,
        provider: result.provider,
        attempts: result.attempts.map(attemptRecord),
      };
    } catch (error) {
      const attempts = attemptsOf(error);
      if (name === 'mean') mean.record(attempts);
      calls[index] = {
        index,
        ttfcMs: Number.POSITIVE_INFINITY,
        provider: '',
        attempts: attempts.map(attemptRecord),
        error: VoxrouteError.isInstance(error) ? error.code : String(error),
      };
    } finally {
      track(-1);
    }
  };

  const start = performance.now();
  const trace: TracePoint[] = [];
  const tracer = setInterval(() => {
    const tMs = Math.round(performance.now() - start);
    for (const p of router.stats().providers) {
      trace.push({
        tMs,
        provider: p.provider,
        ewmaMs: p.ewmaMs === undefined ? undefined : Math.round(p.ewmaMs),
        p50Ms: p.p50Ms === undefined ? undefined : Math.round(p.p50Ms),
        p95Ms: p.p95Ms === undefined ? undefined : Math.round(p.p95Ms),
        inFlight: p.inFlight,
        breaker: p.breaker,
      });
    }
  }, TRACE_EVERY_MS);
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let next = 0;
    const launch = () => {
      const now = performance.now() - start;
      while (next < scenario.requests && scenario.arrivalsMs[next]! <= now) pending.push(call(next++));
      if (next >= scenario.requests) return resolve();
      setTimeout(launch, Math.max(0, scenario.arrivalsMs[next]! - (performance.now() - start)));
    };
    launch();
  });
  await Promise.all(pending);
  clearInterval(tracer);
  const wallMs = performance.now() - start;
  track(0);

  const received = Object.fromEntries(PROVIDERS.map((p) => [p, mocks[p].requests.length])) as Record<
    ProviderName,
    number
  >;
  await router.close();
  await Promise.all(servers.map((s) => s.close()));
  return { name, calls, received, hedges, meanInFlight: inFlightArea / wallMs, wallMs, trace };
}

/** Time to first chunk through the router to a mock that answers at once: the loopback floor. */
async function loopbackFloor(): Promise<Tail> {
  const mock = createOpenAiCompatibleMock();
  const server = await startMockServer({ provider: mock });
  const router = createRouter(configOf('priority', { a: server.url, b: server.url, c: server.url }));
  await router.warmup();
  const times: number[] = [];
  for (let i = 0; i < 120; i++) {
    const t0 = performance.now();
    let ttfc = Number.NaN;
    for await (const _ of router.tts({ text: 'req 0', voice: 'agent', format: PCM_24K })) {
      if (Number.isNaN(ttfc)) ttfc = performance.now() - t0;
    }
    if (i >= 20) times.push(ttfc);
  }
  await router.close();
  await server.close();
  return tailOf(times);
}

// ---------------------------------------------------------------------------------------------

const requests = Math.round(positive(args.requests, 'requests'));
const rate = positive(args.rate, 'rate');
const seed = Math.round(positive(args.seed, 'seed'));
const only = args.only ? args.only.split(',').map((s) => s.trim()) : [...STRATEGIES];
for (const s of only) {
  if (!STRATEGIES.includes(s as StrategyName)) throw new Error(`--only: unknown strategy '${s}'`);
}
const chosen = STRATEGIES.filter((s) => only.includes(s));

const scenario = buildScenario({ requests, seed, ratePerSecond: rate });
console.log(`voxroute routing benchmark: ${requests} requests at ${rate}/s (open loop), seed ${seed}`);
for (const line of SCENARIO_SUMMARY) console.log(`  ${line}`);
console.log(`  b's bursts (request indexes): ${scenario.bursts.map(([s, e]) => `${s}-${e - 1}`).join(', ')}`);
console.log(`  c's tail requests: ${scenario.tailRequests.length}`);
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);

const floor = await loopbackFloor();
console.log(
  `loopback floor (router + HTTP to a mock that answers at once): p50 ${floor.p50.toFixed(2)} ms, p99 ${floor.p99.toFixed(2)} ms`,
);

const results: StrategyResult[] = [];
for (const name of chosen) {
  const r = await runStrategy(name, scenario, seed);
  console.log(
    `  ran ${name}: ${(r.wallMs / 1000).toFixed(1)} s, ${r.meanInFlight.toFixed(1)} calls in flight on average`,
  );
  results.push(r);
}

// ---------------------------------------------------------------------------------------------

interface Row {
  key: StrategyName | 'oracle';
  tail: Tail;
  failed: number;
  extra: number | undefined;
  hedges: number | undefined;
  ttfc: number[];
  /** Per call: the winning attempt's start + its provider's scripted latency (machine noise removed). */
  scripted: number[];
  served: Record<string, number>;
}

const oracleTtfc = scenario.oracleMs.map((v) => v ?? Number.POSITIVE_INFINITY);
const rows: Row[] = [
  {
    key: 'oracle',
    tail: tailOf(oracleTtfc),
    failed: oracleTtfc.filter((v) => !Number.isFinite(v)).length,
    extra: undefined,
    hedges: undefined,
    ttfc: oracleTtfc,
    scripted: oracleTtfc,
    served: countBy(scenario.oracleProvider.map((p) => p ?? '')),
  },
  ...results.map((r) => {
    const ttfc = r.calls.map((c) => c.ttfcMs);
    const total = PROVIDERS.reduce((n, p) => n + r.received[p], 0);
    return {
      key: r.name,
      tail: tailOf(ttfc),
      failed: ttfc.filter((v) => !Number.isFinite(v)).length,
      extra: total - r.calls.length,
      hedges: r.hedges,
      ttfc,
      scripted: r.calls.map((c) => scriptedTtfc(scenario, c)),
      served: countBy(r.calls.map((c) => c.provider)),
    };
  }),
];

/**
 * What a call would have taken with no machine noise: the winning attempt's start (as measured,
 * so fallback and hedge delays count) plus its provider's scripted latency for the request.
 */
function scriptedTtfc(s: Scenario, call: CallRecord): number {
  const winner = call.attempts.find((a) => a.outcome === 'success');
  if (!winner || !Number.isFinite(call.ttfcMs)) return Number.POSITIVE_INFINITY;
  return winner.startedAtMs + s.outcomes[winner.provider as ProviderName][call.index]!.latencyMs;
}

function countBy(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

const byKey = (key: Row['key']) => rows.find((r) => r.key === key);
const oracle = byKey('oracle')!;
const priority = byKey('priority');
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'fail');
const ratio = (v: number, base: number | undefined) =>
  base === undefined || !Number.isFinite(v) || !Number.isFinite(base) ? '-' : (v / base).toFixed(2);
const ratios = (t: Tail, base: Tail | undefined) =>
  `${ratio(t.p50, base?.p50)} / ${ratio(t.p95, base?.p95)} / ${ratio(t.p99, base?.p99)}`;

const header = [
  'strategy',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'failed calls',
  'extra requests (hedges)',
  'vs oracle p50/p95/p99',
  'vs priority p50/p95/p99',
  'served by a/b/c',
];
const table = rows.map((r) => [
  LABELS[r.key],
  ms(r.tail.p50),
  ms(r.tail.p95),
  ms(r.tail.p99),
  String(r.failed),
  r.extra === undefined ? '-' : `${r.extra} (${r.hedges})`,
  r.key === 'oracle' ? '1 / 1 / 1' : ratios(r.tail, oracle.tail),
  r.key === 'priority' ? '1 / 1 / 1' : ratios(r.tail, priority?.tail),
  PROVIDERS.map((p) => r.served[p] ?? 0).join(' / '),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
console.log();
console.log(header.map((h, i) => h.padEnd(widths[i]!)).join('  '));
for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  '));

console.log('\nthe same calls with machine noise removed (winning attempt start + scripted latency):');
for (const r of rows) {
  const t = tailOf(r.scripted);
  console.log(
    `  ${LABELS[r.key].padEnd(widths[0]!)}  p50 ${ms(t.p50).padStart(4)}  p95 ${ms(t.p95).padStart(4)}  p99 ${ms(t.p99).padStart(4)}  vs oracle ${ratios(t, oracle.tail)}`,
  );
}

// Targets of issue 6.
const lat = byKey('latency');
const hedge = byKey('latency-hedge');
const mean = byKey('mean');
const targets: Array<[string, boolean | undefined, string]> = [];
const check = (label: string, ok: boolean | undefined, detail: string) => targets.push([label, ok, detail]);
if (lat) {
  const r = lat.tail.p50 / oracle.tail.p50;
  check('latency p50 within 1.15x of the oracle', r <= 1.15, `${r.toFixed(2)}x`);
}
if (hedge) {
  const r50 = hedge.tail.p50 / oracle.tail.p50;
  check('latency + hedge p50 within 1.15x of the oracle', r50 <= 1.15, `${r50.toFixed(2)}x`);
  const r = hedge.tail.p99 / oracle.tail.p99;
  check('p99 within 1.5x of the oracle with hedging', r <= 1.5, `${r.toFixed(2)}x`);
  for (const base of [priority, mean]) {
    if (!base) continue;
    const f = base.tail.p99 / hedge.tail.p99;
    check(`p99 (with hedging) at least 2x better than ${base.key}`, f >= 2, `${f.toFixed(2)}x better`);
  }
  if (lat) {
    const cut = 1 - hedge.tail.p99 / lat.tail.p99;
    const share = (hedge.hedges ?? 0) / requests;
    check(
      'hedging cuts p99 by >= 40% at <= 10% extra requests',
      cut >= 0.4 && share <= 0.1,
      `p99 cut ${(cut * 100).toFixed(0)}%, hedges ${(share * 100).toFixed(1)}% of calls`,
    );
  }
}
if (lat) {
  for (const base of [priority, mean]) {
    if (!base) continue;
    const f = base.tail.p99 / lat.tail.p99;
    check(`p99 (no hedging) at least 2x better than ${base.key}`, f >= 2, `${f.toFixed(2)}x better`);
  }
}
console.log();
for (const [label, ok, detail] of targets) console.log(`${ok ? 'MET    ' : 'NOT MET'}  ${label}: ${detail}`);

if (args.markdown) {
  console.log();
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const row of table) console.log(`| ${row.join(' | ')} |`);
  console.log();
  console.log('| target | result | met |');
  console.log('| --- | --- | --- |');
  for (const [label, ok, detail] of targets) console.log(`| ${label} | ${detail} | ${ok ? 'yes' : 'no'} |`);
}

if (args.svg) {
  const order: Array<Row['key']> = ['oracle', 'latency-hedge', 'latency', 'mean', 'priority'];
  const series = order.flatMap((key) => {
    const row = byKey(key);
    return row ? [{ label: LABELS[key], color: COLORS[key], ttfcMs: row.ttfc }] : [];
  });
  writeFileSync(
    args.svg,
    renderPlot(`Routing benchmark: time to first chunk, ${requests} requests (seed ${seed})`, series),
  );
  console.log(`\nplot written to ${args.svg}`);
}

if (args.json) {
  writeFileSync(
    args.json,
    JSON.stringify(
      {
        requests,
        rate,
        seed,
        floor,
        scenario: {
          bursts: scenario.bursts,
          tailRequests: scenario.tailRequests,
          oracleMs: scenario.oracleMs,
        },
        outcomes: scenario.outcomes,
        results: results.map((r) => ({
          ...r,
          calls: r.calls.map((c) => ({ ...c, ttfcMs: Number.isFinite(c.ttfcMs) ? c.ttfcMs : null })),
        })),
      },
      null,
      1,
    ),
  );
  console.log(`figures written to ${args.json}`);
}
