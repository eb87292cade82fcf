/**
 * The scripted scenario of the routing benchmark: three providers whose latency and failures
 * for request i are fixed in advance by a seeded generator, so every strategy faces the same
 * requests and an oracle can be computed.
 *
 * - `a` drifts: 80 ms at first, then from 20% of the run its median climbs linearly to 400 ms
 *   at the end (a provider region slowly getting overloaded). It never fails.
 * - `b` fails in bursts: median 120 ms, but three stretches of 40 consecutive requests get a
 *   503 after ~10 ms (an outage), plus 1% isolated 503s.
 * - `c` has a heavy tail: median 100 ms, but 3% of its requests take a Pareto draw from
 *   500 ms up (shape 1.5, capped at 5 000 ms).
 *
 * Every latency is also multiplied by exp(0.1 x N(0, 1)) (about +-10% noise).
 * Requests arrive open-loop (Poisson, `ratePerSecond`): request i starts at `arrivalsMs[i]`
 * whatever the strategy, so the providers' changes happen at the same time for all of them.
 */
import { exponential, mulberry32, normal, pareto, type Random } from './prng.js';

/** The providers of the scenario, in the order a static priority list names them. */
export const PROVIDERS = ['a', 'b', 'c'] as const;
/** A provider of the scenario. */
export type ProviderName = (typeof PROVIDERS)[number];

/** What provider p does with request i: answer after `latencyMs`, or fail (503) after it. */
export interface Outcome {
  /** Time from the request reaching the provider to its first audio, or to its 503, in ms. */
  latencyMs: number;
  /** True: the provider answers 503 after `latencyMs`. */
  fails: boolean;
}

/** Options of {@link buildScenario}. */
export interface ScenarioOptions {
  /** Number of requests. */
  requests: number;
  /** Seed of every random draw. */
  seed: number;
  /** Mean arrival rate, in requests per second. */
  ratePerSecond: number;
  /** The scenario's numbers. Default: PROFILES.spread. */
  profile?: Profile;
}

/** The whole scenario, known in advance. */
export interface Scenario {
  requests: number;
  /** The numbers it was built from. */
  profile: Profile;
  /** Start time of request i, in ms from the start of the run. */
  arrivalsMs: number[];
  /** Outcome of request i on each provider. */
  outcomes: Record<ProviderName, Outcome[]>;
  /** Index ranges [start, end) of b's outage bursts. */
  bursts: Array<[number, number]>;
  /** Indexes of requests where c's latency is in its tail. */
  tailRequests: number[];
  /** Per request: the fastest non-failing provider's latency in ms (undefined: all fail). */
  oracleMs: Array<number | undefined>;
  /** Per request: the provider the oracle picks. */
  oracleProvider: Array<ProviderName | undefined>;
}

/**
 * The numbers of a scenario. Two are defined (see {@link PROFILES}); `spread` is the default.
 * All latencies in ms.
 */
export interface Profile {
  /** Name given with `--scenario`. */
  name: string;
  /** Every latency is multiplied by exp(jitterSigma x N(0, 1)). */
  jitterSigma: number;
  /** a: median before the drift, at the end of the run, and the share of the run before the drift. */
  aStartMs: number;
  aEndMs: number;
  aDriftFrom: number;
  /** b: median; a failure answers 503 after about bFailMs. */
  bMedianMs: number;
  bFailMs: number;
  bBursts: number;
  bBurstLength: number;
  bIsolatedFailureRate: number;
  /** c: median, and the share of its requests in a Pareto tail (scale, shape, cap). */
  cMedianMs: number;
  cTailRate: number;
  cTailScaleMs: number;
  cTailShape: number;
  cTailCapMs: number;
  /**
   * When set, c's tail is a stall instead of a Pareto draw: cTailRate of its requests take
   * cStallMs x the jitter (the tail sits above c's p90 when cTailRate > 10%, or just at it).
   */
  cStallMs?: number;
}

/** The noise, a and b of the `close` scenario, shared by the stall scenarios. */
const CLOSE_A_B = {
  jitterSigma: 0.1,
  aStartMs: 80,
  aEndMs: 400,
  aDriftFrom: 0.2,
  bMedianMs: 120,
  bFailMs: 10,
  bBursts: 3,
  bBurstLength: 40,
  bIsolatedFailureRate: 0.01,
};

/** Issue 13's profile at 10% stalls (see PROFILES.stall10). */
const STALL10: Profile = {
  name: 'stall10',
  ...CLOSE_A_B,
  cMedianMs: 50,
  cTailRate: 0.1,
  cTailScaleMs: 600,
  cTailShape: 0,
  cTailCapMs: 600,
  cStallMs: 600,
};

/**
 * The scenarios of the benchmark:
 * - `spread` (default): the three providers lie far apart, as voice providers do (a
 *   self-hosted model next to the caller, a managed endpoint, a third-party API): a starts at
 *   40 ms and drifts to 600 ms, c answers in 50 ms with a heavy tail, b in 160 ms with outages.
 * - `close`: the first scenario (session 1): all three within 80-120 ms, a drifting to 400 ms.
 *   There no p95 hedge can reach 1.5x the oracle's p99: a request in c's tail takes at least
 *   p95(c) + median(b), about 1.9x the oracle's p99 (see the informed router's row).
 */
export const PROFILES: Record<string, Profile> = {
  spread: {
    name: 'spread',
    jitterSigma: 0.1,
    aStartMs: 40,
    aEndMs: 600,
    aDriftFrom: 0.2,
    bMedianMs: 160,
    bFailMs: 10,
    bBursts: 3,
    bBurstLength: 40,
    bIsolatedFailureRate: 0.01,
    cMedianMs: 50,
    cTailRate: 0.03,
    cTailScaleMs: 500,
    cTailShape: 1.5,
    cTailCapMs: 5_000,
  },
  close: {
    name: 'close',
    ...CLOSE_A_B,
    cMedianMs: 100,
    cTailRate: 0.03,
    cTailScaleMs: 500,
    cTailShape: 1.5,
    cTailCapMs: 5_000,
  },
  // Issue 13: the fastest provider at the median stalls on 10% (or 20%) of its calls for 600 ms,
  // more often than a 10% hedge budget can cover at 20%; a drifts up, b fails in bursts.
  stall10: STALL10,
  // stall10 with c stalling on 20% of its calls.
  stall20: { ...STALL10, name: 'stall20', cTailRate: 0.2 },
};

/** A short description of a profile's parameters, for the report. */
export function summaryOf(f: Profile): string[] {
  return [
    `scenario '${f.name}'`,
    `a: drifts; ${f.aStartMs} ms, then from ${f.aDriftFrom * 100}% of the run its median climbs linearly to ${f.aEndMs} ms; never fails`,
    `b: ${f.bMedianMs} ms; ${f.bBursts} bursts of ${f.bBurstLength} consecutive requests answered 503 after ~${f.bFailMs} ms, plus ${f.bIsolatedFailureRate * 100}% isolated 503s`,
    f.cStallMs !== undefined
      ? `c: ${f.cMedianMs} ms; ${f.cTailRate * 100}% of requests stall for ${f.cStallMs} ms`
      : `c: ${f.cMedianMs} ms; ${f.cTailRate * 100}% of requests in a Pareto tail from ${f.cTailScaleMs} ms (shape ${f.cTailShape}, cap ${f.cTailCapMs} ms)`,
    `noise: every latency x exp(${f.jitterSigma} x N(0,1))`,
  ];
}

/** Builds the scenario; the same options always give the same scenario. */
export function buildScenario(options: ScenarioOptions): Scenario {
  const n = options.requests;
  const f = options.profile ?? PROFILES.spread!;
  // One stream per concern, so that changing one provider's shape does not move the others.
  const stream = (k: number): Random => mulberry32((options.seed * 7_919 + k * 104_729) >>> 0);
  const arrivalRandom = stream(1);
  const aRandom = stream(2);
  const bRandom = stream(3);
  const cRandom = stream(4);
  const burstRandom = stream(5);
  const jitter = (random: Random) => Math.exp(f.jitterSigma * normal(random));

  const arrivalsMs: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    arrivalsMs.push(Math.round(t));
    t += exponential(arrivalRandom, 1_000 / options.ratePerSecond);
  }

  const bursts = placeBursts(n, burstRandom, f);
  const inBurst = (i: number) => bursts.some(([s, e]) => i >= s && i < e);
  const tailRequests: number[] = [];
  const a: Outcome[] = [];
  const b: Outcome[] = [];
  const c: Outcome[] = [];
  for (let i = 0; i < n; i++) {
    a.push({ latencyMs: aMedianMs(f, i, n) * jitter(aRandom), fails: false });

    const bFails = inBurst(i) || bRandom() < f.bIsolatedFailureRate;
    const bJitter = jitter(bRandom);
    b.push(
      bFails
        ? { latencyMs: f.bFailMs * bJitter, fails: true }
        : { latencyMs: f.bMedianMs * bJitter, fails: false },
    );

    const cJitter = jitter(cRandom);
    const tail = cRandom() < f.cTailRate;
    const paretoMs = Math.min(f.cTailCapMs, pareto(cRandom, f.cTailScaleMs, f.cTailShape || 1));
    const tailMs = f.cStallMs !== undefined ? f.cStallMs * cJitter : paretoMs;
    if (tail) tailRequests.push(i);
    c.push({ latencyMs: tail ? tailMs : f.cMedianMs * cJitter, fails: false });
  }
  for (const list of [a, b, c]) for (const o of list) o.latencyMs = Math.round(o.latencyMs);

  const outcomes: Record<ProviderName, Outcome[]> = { a, b, c };
  const oracleMs: Array<number | undefined> = [];
  const oracleProvider: Array<ProviderName | undefined> = [];
  for (let i = 0; i < n; i++) {
    let best: ProviderName | undefined;
    for (const p of PROVIDERS) {
      const o = outcomes[p][i]!;
      if (o.fails) continue;
      if (best === undefined || o.latencyMs < outcomes[best][i]!.latencyMs) best = p;
    }
    oracleProvider.push(best);
    oracleMs.push(best === undefined ? undefined : outcomes[best][i]!.latencyMs);
  }
  return { requests: n, profile: f, arrivalsMs, outcomes, bursts, tailRequests, oracleMs, oracleProvider };
}

/** The median latency of provider `p` at request i of the scenario (its typical latency then), in ms. */
export function typicalMs(s: Scenario, p: ProviderName, i: number): number {
  if (p === 'a') return aMedianMs(s.profile, i, s.requests);
  return p === 'b' ? s.profile.bMedianMs : s.profile.cMedianMs;
}

/** The median latency of the drifting provider `a` for request i of n, in ms. */
function aMedianMs(f: Profile, i: number, n: number): number {
  const progress = i / Math.max(1, n - 1);
  const drift = Math.max(0, (progress - f.aDriftFrom) / (1 - f.aDriftFrom));
  return f.aStartMs + (f.aEndMs - f.aStartMs) * drift;
}

/** Places b's bursts at random, apart from each other, after the first 10% of the run. */
function placeBursts(n: number, random: Random, f: Profile): Array<[number, number]> {
  const bursts: Array<[number, number]> = [];
  const first = Math.floor(n * 0.1);
  const span = n - first - f.bBurstLength;
  for (let tries = 0; bursts.length < f.bBursts && tries < 1_000; tries++) {
    const start = first + Math.floor(random() * span);
    const end = start + f.bBurstLength;
    if (bursts.some(([s, e]) => start < e + f.bBurstLength && end + f.bBurstLength > s)) continue;
    bursts.push([start, end]);
  }
  return bursts.sort((x, y) => x[0] - y[0]);
}
