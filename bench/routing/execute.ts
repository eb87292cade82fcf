/**
 * Runs one strategy of the routing benchmark: three loopback mocks playing the scenario, a
 * fresh router, and open-loop callers that measure time to first chunk.
 */
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
import { P2cRouting } from './p2c-routing.js';
import { mulberry32 } from './prng.js';
import { type Tail, tailOf } from './quantiles.js';
import { PROVIDERS, type ProviderName, type Scenario } from './scenario.js';
import { inProcessFetch, VirtualTime } from './virtual-time.js';

/** The strategies the benchmark runs. */
export const STRATEGIES = ['auto', 'latency-hedge', 'latency', 'mean', 'p2c', 'priority'] as const;
/** A strategy the benchmark runs (see run.ts for what each one is). */
export type StrategyName = (typeof STRATEGIES)[number];

/** Hedging of the `latency-hedge` strategy. */
export const HEDGE = { after: 'p95', maxShare: 0.1 } as const;
/** Hedging of the `auto` strategy (the recommended setting). */
export const AUTO_HEDGE = { after: 'auto', maxShare: 0.1 } as const;

const PCM_24K: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };
/** How often the router's scores are read into the trace, in ms. */
const TRACE_EVERY_MS = 250;

/** One attempt of a call, as the router's result reports it. */
export interface AttemptRecord {
  provider: string;
  outcome: string;
  /** ms from the call's start to the attempt's start. */
  startedAtMs: number;
  /** ms from the attempt's start to its first chunk, when it had one. */
  ttfcMs?: number;
}

/** One call as the caller saw it. */
export interface CallRecord {
  index: number;
  /** Time to first chunk in ms, from just before `router.tts()`; Infinity when the call threw. */
  ttfcMs: number;
  /** The provider that served it ('' when it failed). */
  provider: string;
  attempts: AttemptRecord[];
  /** The error code when the call threw. */
  error?: string;
}

/** One reading of a provider's figures in `router.stats()`. */
export interface TracePoint {
  /** ms since the run started. */
  tMs: number;
  provider: string;
  ewmaMs: number | undefined;
  /** The score the `latency` strategy ranks by (confirmed peak-EWMA), ms. */
  scoreMs: number | undefined;
  p50Ms: number | undefined;
  p95Ms: number | undefined;
  inFlight: number;
  breaker: string;
}

/** One strategy's run. */
export interface StrategyResult {
  name: StrategyName;
  /** Call i of the scenario at index i. */
  calls: CallRecord[];
  /** Requests each mock received (hedges and fallbacks included). */
  received: Record<ProviderName, number>;
  /** Hedged attempts started (router `hedge` events). */
  hedges: number;
  /** Mean number of calls in flight over the run. */
  meanInFlight: number;
  /** ms from the first request to the end of the last call. */
  wallMs: number;
  /** The router's scores, read every 250 ms. */
  trace: TracePoint[];
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

/** The route name of a provider order, for the `mean` strategy (one `priority` route per order). */
const orderRoute = (order: readonly string[]) => `tts-${order.join('')}`;

/** The router config of a strategy over the three mock origins. */
function configOf(strategy: StrategyName, urls: Record<ProviderName, string>): RouterConfig {
  const providers = Object.fromEntries(
    PROVIDERS.map((p) => [
      p,
      {
        kind: 'openai-compatible' as const,
        baseUrl: `${urls[p]}/v1`,
        tts: { model: 'bench-tts', voices: { agent: 'alloy' } },
      },
    ]),
  );
  const routes: RouterConfig['routes'] = {};
  if (strategy === 'mean' || strategy === 'p2c') {
    for (const order of permutations([...PROVIDERS])) {
      routes[orderRoute(order)] = { capability: 'tts', providers: order, strategy: 'priority' };
    }
  } else {
    routes.tts = {
      providers: [...PROVIDERS],
      strategy: strategy === 'priority' ? 'priority' : 'latency',
      ...(strategy === 'latency-hedge' ? { hedge: HEDGE } : {}),
      ...(strategy === 'auto' ? { hedge: AUTO_HEDGE } : {}),
    };
  }
  return { providers, routes } as RouterConfig;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

function attemptRecord(a: Attempt): AttemptRecord {
  return {
    provider: a.provider,
    outcome: a.outcome,
    startedAtMs: a.startedAtMs,
    ...(a.timeToFirstChunkMs !== undefined ? { ttfcMs: a.timeToFirstChunkMs } : {}),
  };
}

/**
 * How a run keeps time and reaches the mocks: `loopback` (real time, mocks on loopback ports,
 * the router's default HTTP transport) or `virtual` (virtual-time.ts: exact, in-process).
 */
export type ClockMode = 'loopback' | 'virtual';

/**
 * Runs the whole scenario with one strategy on a fresh router and fresh mocks; `seed` seeds the
 * router's random draws (power of two choices, breaker jitter).
 */
export async function runStrategy(
  name: StrategyName,
  scenario: Scenario,
  seed: number,
  mode: ClockMode = 'loopback',
): Promise<StrategyResult> {
  const vt = mode === 'virtual' ? new VirtualTime() : undefined;
  const now = vt ? () => vt.now() : () => performance.now();
  const mocks = {} as Record<ProviderName, OpenAiCompatibleMock>;
  for (const p of PROVIDERS) {
    mocks[p] = createOpenAiCompatibleMock({
      script: { speech: scriptOf(scenario, p) },
      ...(vt ? { delay: vt.delay, now } : {}),
    });
  }
  let urls: Record<ProviderName, string>;
  let closeServers = async () => {};
  if (vt) {
    urls = Object.fromEntries(PROVIDERS.map((p) => [p, `http://${p}.mock.test`])) as Record<
      ProviderName,
      string
    >;
  } else {
    const servers = await Promise.all(PROVIDERS.map((p) => startMockServer({ provider: mocks[p] })));
    urls = Object.fromEntries(PROVIDERS.map((p, i) => [p, servers[i]!.url])) as Record<ProviderName, string>;
    closeServers = async () => {
      await Promise.all(servers.map((s) => s.close()));
    };
  }
  const router = createRouter(configOf(name, urls), {
    random: mulberry32(seed),
    ...(vt
      ? {
          clock: vt,
          fetch: inProcessFetch(new Map(PROVIDERS.map((p) => [new URL(urls[p]).origin, mocks[p]]))),
        }
      : {}),
  });
  let hedges = 0;
  router.on('hedge', () => {
    hedges++;
  });
  const mean = new MeanRouting(PROVIDERS);
  const p2c = new P2cRouting(PROVIDERS, mulberry32(seed + 1));
  if (!vt) await router.warmup();

  const calls: CallRecord[] = new Array(scenario.requests);
  let finished = 0;
  let inFlight = 0;
  let inFlightArea = 0;
  let lastChange = now();
  const track = (delta: number) => {
    const t = now();
    inFlightArea += inFlight * (t - lastChange);
    lastChange = t;
    inFlight += delta;
  };

  const call = async (index: number): Promise<void> => {
    const p2cFirst = name === 'p2c' ? p2c.order() : undefined;
    const route = name === 'mean' ? orderRoute(mean.order()) : p2cFirst ? orderRoute(p2cFirst) : 'tts';
    if (p2cFirst) p2c.pending(p2cFirst[0]!, 1);
    track(1);
    const t0 = now();
    let ttfcMs = Number.POSITIVE_INFINITY;
    const stream = router.tts({ text: `req ${index}`, voice: 'agent', route, format: PCM_24K });
    try {
      for await (const chunk of stream) {
        if (ttfcMs === Number.POSITIVE_INFINITY && chunk.data.byteLength > 0) ttfcMs = now() - t0;
      }
      const result = await stream.result;
      if (name === 'mean') mean.record(result.attempts);
      if (p2cFirst) p2c.record(result.attempts, now());
      calls[index] = {
        index,
        ttfcMs,
        provider: result.provider,
        attempts: result.attempts.map(attemptRecord),
      };
    } catch (error) {
      const attempts = AllProvidersFailedError.isInstance(error) ? [...error.attempts] : [];
      if (name === 'mean') mean.record(attempts);
      if (p2cFirst) p2c.record(attempts, now());
      calls[index] = {
        index,
        ttfcMs: Number.POSITIVE_INFINITY,
        provider: '',
        attempts: attempts.map(attemptRecord),
        error: VoxrouteError.isInstance(error) ? error.code : String(error),
      };
    } finally {
      if (p2cFirst) p2c.pending(p2cFirst[0]!, -1);
      track(-1);
      finished++;
    }
  };

  const start = now();
  const trace: TracePoint[] = [];
  const readScores = () => {
    const tMs = Math.round(now() - start);
    for (const p of router.stats().providers) {
      const round = (v: number | undefined) => (v === undefined ? undefined : Math.round(v));
      trace.push({
        tMs,
        provider: p.provider,
        ewmaMs: round(p.ewmaMs),
        scoreMs: round(p.scoreMs),
        p50Ms: round(p.p50Ms),
        p95Ms: round(p.p95Ms),
        inFlight: p.inFlight,
        breaker: p.breaker,
      });
    }
  };
  // Open loop: request i starts at its arrival time, whatever the calls before it are doing.
  const pending: Promise<void>[] = [];
  if (vt) {
    scenario.arrivalsMs.forEach((at, i) => {
      vt.setTimeout(() => pending.push(call(i)), at);
    });
    const tick = () => {
      readScores();
      if (finished < scenario.requests) vt.setTimeout(tick, TRACE_EVERY_MS);
    };
    vt.setTimeout(tick, TRACE_EVERY_MS);
    await vt.run(() => finished === scenario.requests);
    await Promise.all(pending);
  } else {
    const tracer = setInterval(readScores, TRACE_EVERY_MS);
    await new Promise<void>((resolve) => {
      let next = 0;
      const launch = () => {
        const elapsed = now() - start;
        while (next < scenario.requests && scenario.arrivalsMs[next]! <= elapsed) pending.push(call(next++));
        if (next >= scenario.requests) return resolve();
        setTimeout(launch, Math.max(0, scenario.arrivalsMs[next]! - (now() - start)));
      };
      launch();
    });
    await Promise.all(pending);
    clearInterval(tracer);
  }
  const wallMs = now() - start;
  track(0);

  const received = Object.fromEntries(PROVIDERS.map((p) => [p, mocks[p].requests.length])) as Record<
    ProviderName,
    number
  >;
  await router.close();
  await closeServers();
  return { name, calls, received, hedges, meanInFlight: inFlightArea / wallMs, wallMs, trace };
}

/**
 * Time to first chunk through a router to a mock that answers at once (120 sequential calls,
 * the first 20 not counted): what the machine adds to every call, whatever the strategy.
 */
export async function loopbackFloor(): Promise<Tail> {
  const server = await startMockServer({ provider: createOpenAiCompatibleMock() });
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
