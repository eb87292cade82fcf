import type { Capability } from '../types/route-result.js';
import { TailModel, type TailSummary } from './tail.js';

/** Options of a {@link LatencyTracker}. */
export interface LatencyTrackerOptions {
  /**
   * Decay time of the EWMA, in ms: a sample's weight falls to 1/e after this long.
   * Default: 10 000 ms.
   */
  decayMs?: number;
  /** How many recent samples are kept for quantiles. Default: 256. */
  window?: number;
}

/** Per-key latency state, as the tracker snapshots it and `router.stats()` reports it. */
export interface LatencySnapshot {
  /**
   * The latency score the `latency` strategy ranks by, in ms: the larger of `ewmaMs` and the
   * smaller of the last two samples (a peak confirmed by two samples in a row); undefined
   * before the first sample.
   */
  scoreMs: number | undefined;
  /** EWMA of time to first chunk (time-decayed weights), in ms; undefined before the first sample. */
  ewmaMs: number | undefined;
  /**
   * Median of the recent window of TTFC samples, in ms; undefined before the first sample. The
   * samples of a streaming STT provider are its transcription lag (from when the audio up to a
   * transcript's end had been read to the transcript), not its TTFC: docs/routing.md, "Scores".
   */
  p50Ms: number | undefined;
  /** 90th percentile of the recent window of TTFC samples, in ms; undefined before the first sample. */
  p90Ms: number | undefined;
  /** 95th percentile of the recent window of TTFC samples, in ms; undefined before the first sample. */
  p95Ms: number | undefined;
  /** 99th percentile of the recent window of TTFC samples, in ms; undefined before the first sample. */
  p99Ms: number | undefined;
  /**
   * Where the provider's normal latencies end (the knee of its learned distribution), in ms;
   * undefined until the first warm sample (a key's first call and cold starts count in `samples`
   * but not in the tail model). See docs/routing.md, "Tail model".
   */
  kneeMs: number | undefined;
  /** Share of calls beyond the knee, in [0, 1] (time-decayed, prior-smoothed); undefined until the first warm sample. */
  tailShare: number | undefined;
  /** Mean excess of a call beyond the knee, in ms (the tail's magnitude); undefined until the first warm sample. */
  tailExcessMs: number | undefined;
  /**
   * The hedge delay the router computed for this provider as a first choice on its latest call,
   * in ms; undefined when it would not hedge (no hedging, or no hedge worth its price).
   */
  hedgeAfterMs: number | undefined;
  /** Attempts started, whatever their outcome (a lost hedge and a caller's abort included). */
  attempts: number;
  /** Successful calls measured. */
  samples: number;
  /** Failed attempts. */
  errors: number;
  /**
   * Attempts cut by the caller's own first-chunk deadline (a per-call `firstChunkTimeoutMs`
   * shorter than the route's, e.g. a voice turn's budget): not failures (not in `errors` or
   * `errorRate`), censored latencies (docs/routing.md, "A caller's deadline shorter than the
   * route's").
   */
  callerTimeouts: number;
  /**
   * The longest wait cut by a caller's first-chunk deadline since the provider last answered,
   * in ms: its time to first chunk is at least this. Undefined once it answers (or before any
   * such cut).
   */
  lowerBoundMs: number | undefined;
  /** Share of failed attempts among the recent window of outcomes, in [0, 1]. */
  errorRate: number;
  /** Attempts running now. */
  inFlight: number;
  /** Monotonic time (ms) of the last sample, failure or caller-deadline cut, if any. */
  lastUpdateMs: number | undefined;
  /**
   * True while the provider is taken to be down: its last attempts failed in a row, 2 to 4 of
   * them depending on how often it failed before (docs/routing.md, "Tail model"). Latency
   * routing then plans its next call to fail and puts every provider that answers first, until
   * it answers again (the probe after `probeAfterMs`, a fallback or a hedge).
   */
  down: boolean;
}

interface Entry {
  ewma: number | undefined;
  /** The latest sample and the one before it, in ms (cold starts and failures not counted). */
  last: number | undefined;
  previous: number | undefined;
  lastSampleAt: number;
  attempts: number;
  samples: number;
  errors: number;
  /** Attempts cut by the caller's own first-chunk deadline. */
  callerTimeouts: number;
  /** The longest such cut since the last answer, in ms (a lower bound of the TTFC). */
  lowerBound: number | undefined;
  inFlight: number;
  recent: number[];
  recentNext: number;
  /** `recent` sorted, computed when router.stats() asks after a new sample. */
  sorted: number[] | undefined;
  /** `samples` when `sorted` was computed. */
  sortedAt: number;
  outcomes: boolean[];
  outcomesNext: number;
  lastUpdate: number | undefined;
  /** The learned distribution (body and tail), updated on every outcome. */
  model: TailModel;
  hedgeAfterMs: number | undefined;
  /** The first call's TTFC while no warm sample exists (an upper bound), in ms. */
  coldBound: number | undefined;
  /**
   * Outcomes (samples + errors + caller timeouts) recorded when `coldBound` was: none since means
   * re-try soon.
   */
  coldBoundAt: number | undefined;
  /** Whether the last outcome (success or failure) was a failure. */
  lastFailed: boolean;
}

/**
 * Tracks time to first chunk (TTFC) per (provider, capability, model) and scores it as a
 * peak-EWMA whose peak needs confirming:
 *
 *   score = max(EWMA, min(last sample, the sample before it))
 *
 * The EWMA folds every sample in with a time-decayed weight (the old value keeps
 * exp(-elapsed / decayMs)), so fast samples lower the score gradually and a provider measured
 * long ago counts for little. Two slow samples in a row raise the score to the smaller of
 * them at once, so a provider that got slow is avoided from the next call; one slow sample
 * alone (a request in a heavy tail) does not, since it says nothing about the next request
 * (docs/decisions.md, "Routing score"). Keeps a window of recent samples for exact quantiles
 * and of recent outcomes for the error rate. Failures never change the latency score (a fast
 * failure never looks fast).
 */
export class LatencyTracker {
  readonly #decayMs: number;
  readonly #window: number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: LatencyTrackerOptions = {}) {
    this.#decayMs = options.decayMs ?? 10_000;
    this.#window = options.window ?? 256;
  }

  /** The map key of a (provider, capability, model). */
  static key(provider: string, capability: Capability, model: string | undefined): string {
    return `${provider}\u0000${capability}\u0000${model ?? ''}`;
  }

  #entry(key: string): Entry {
    let e = this.#entries.get(key);
    if (!e) {
      e = {
        ewma: undefined,
        last: undefined,
        previous: undefined,
        lastSampleAt: 0,
        attempts: 0,
        samples: 0,
        errors: 0,
        callerTimeouts: 0,
        lowerBound: undefined,
        inFlight: 0,
        recent: [],
        recentNext: 0,
        sorted: undefined,
        sortedAt: 0,
        outcomes: [],
        outcomesNext: 0,
        lastUpdate: undefined,
        model: new TailModel(),
        hedgeAfterMs: undefined,
        coldBound: undefined,
        coldBoundAt: undefined,
        lastFailed: false,
      };
      this.#entries.set(key, e);
    }
    return e;
  }

  /**
   * Records a successful TTFC sample of `ms` at monotonic time `now`: folded into the EWMA with
   * the weight 1 - exp(-elapsed / decayMs), and kept as the latest sample for the peak (see
   * the class). `coldStart: true` (the first call after a long idle) is only averaged in, never
   * part of a peak, so one cold start is not held against the provider. `decayMs` overrides the
   * tracker's decay time for this sample (a route's `ewmaDecayMs`).
   *
   * `firstCall: true` (with `coldStart`; the key's first call ever, paying for connection setup
   * and lazy loading) makes the sample an upper bound: it is the score until the first warm
   * sample, which replaces it (EWMA and quantile window start over from it), and
   * {@link coldBound} asks for the key to be re-tried soon rather than after `probeAfterMs`.
   */
  recordSuccess(
    key: string,
    ms: number,
    now: number,
    options: { coldStart?: boolean; firstCall?: boolean; decayMs?: number } = {},
  ): void {
    const e = this.#entry(key);
    const cold = (options.coldStart ?? false) || (options.firstCall ?? false);
    if (!cold && e.coldBound !== undefined) {
      // The first warm sample replaces the first call's upper bound.
      e.ewma = undefined;
      e.recent = [];
      e.recentNext = 0;
      e.coldBound = undefined;
      e.coldBoundAt = undefined;
    }
    const first = options.firstCall === true && e.samples === 0;
    this.#fold(e, ms, now, cold, options.decayMs);
    e.lastUpdate = now;
    e.samples++;
    // It answered: the waits cut by callers' deadlines before say nothing more.
    e.lowerBound = undefined;
    if (first) {
      e.coldBound = ms;
      e.coldBoundAt = e.samples + e.errors + e.callerTimeouts;
    }
    // A cold start is not part of the provider's distribution (see the class), but it is an
    // answer: it ends a run of failures.
    if (cold) e.model.recordAnswer(now);
    else e.model.record(ms, now);
    this.#push(e.recent, ms, e, 'recentNext');
    this.#pushOutcome(e, true);
  }

  /**
   * Records an attempt cancelled before its first chunk (the caller aborted, or it lost a
   * hedge) after `elapsedMs`. Its time is a lower bound of the provider's TTFC, so it counts
   * (as a sample) only when it already exceeds the score; a cancellation never makes a
   * provider look fast. `decayMs` as in {@link recordSuccess}.
   */
  recordCancelled(key: string, elapsedMs: number, now: number, options: { decayMs?: number } = {}): void {
    const e = this.#entry(key);
    e.model.recordCensored(elapsedMs, now);
    this.#foldBound(e, elapsedMs, now, options.decayMs);
  }

  /**
   * Records an attempt cut after `waitedMs` by the caller's own first-chunk deadline, shorter
   * than the route's (docs/routing.md, "A caller's deadline shorter than the route's"). Not a
   * failure: no outcome in the error rate, no failure run. A censored sample: the provider took
   * at least `waitedMs`. Beyond the score it is folded into the EWMA as {@link recordCancelled}
   * does; beyond the knee of the learned distribution it counts as a slow answer of `waitedMs`
   * among the latest calls, so a run of such cuts moves the distribution the `latency` strategy
   * ranks by (TailModel.recordCallerTimeout), fading as a run of slow answers does. It is also
   * the key's latest outcome ({@link lastTriedAt}): a provider cut this way is not probed again
   * until `probeAfterMs`, and one never measured ranks after the providers that answered. The
   * longest such wait since the last answer is kept as {@link lowerBound}.
   */
  recordCallerTimeout(key: string, waitedMs: number, now: number, options: { decayMs?: number } = {}): void {
    const e = this.#entry(key);
    e.model.recordCallerTimeout(waitedMs, now);
    this.#foldBound(e, waitedMs, now, options.decayMs);
    e.callerTimeouts++;
    e.lowerBound = Math.max(e.lowerBound ?? 0, waitedMs);
    e.lastUpdate = now;
  }

  /**
   * The longest wait (ms) of `key` cut by a caller's first-chunk deadline since it last
   * answered: a lower bound of its TTFC; undefined when none.
   */
  lowerBound(key: string): number | undefined {
    return this.#entries.get(key)?.lowerBound;
  }

  /** Folds a lower bound `ms` of the TTFC into the EWMA, when it exceeds the score. */
  #foldBound(e: Entry, ms: number, now: number, decayMs: number | undefined): void {
    const current = scoreOf(e);
    // With no score yet, a lower bound (a barge-in after 5 ms) would become the EWMA's start.
    if (current === undefined || ms <= current) return;
    this.#fold(e, ms, now, false, decayMs);
  }

  #fold(e: Entry, ms: number, now: number, coldStart: boolean, decayMs = this.#decayMs): void {
    if (e.ewma === undefined) e.ewma = ms;
    else {
      const w = Math.exp(-Math.max(0, now - e.lastSampleAt) / decayMs);
      // Until a second sample confirms it, a slow sample enters the EWMA capped at the larger of
      // the previous sample and the EWMA: at one call every few seconds its weight is large, and
      // one outlier must not become the score through the EWMA either.
      const x = coldStart ? ms : Math.min(ms, Math.max(e.last ?? e.ewma, e.ewma));
      e.ewma = e.ewma * w + x * (1 - w);
    }
    if (coldStart) {
      // A sample from before the idle must not pair with one after it to confirm a peak.
      e.last = undefined;
      e.previous = undefined;
    } else {
      e.previous = e.last;
      e.last = ms;
    }
    e.lastSampleAt = now;
  }

  /**
   * Records a failed attempt at monotonic time `now`; the latency score is not changed. With
   * `elapsedMs` (a failure before the first chunk, after that long) it also counts in the
   * learned failure share.
   */
  recordFailure(key: string, now: number, elapsedMs?: number): void {
    const e = this.#entry(key);
    if (elapsedMs !== undefined) e.model.recordFailure(elapsedMs, now);
    e.errors++;
    e.lastUpdate = now;
    this.#pushOutcome(e, false);
  }

  /** Marks an attempt as started (+1) or ended (-1). */
  inFlight(key: string, delta: 1 | -1): void {
    const e = this.#entry(key);
    e.inFlight = Math.max(0, e.inFlight + delta);
    if (delta === 1) e.attempts++;
  }

  /** Attempts running now on `key`. */
  inFlightOf(key: string): number {
    return this.#entries.get(key)?.inFlight ?? 0;
  }

  /** The EWMA of `key` in ms, or undefined when never measured. */
  ewma(key: string): number | undefined {
    return this.#entries.get(key)?.ewma;
  }

  /**
   * The latency score of `key` in ms (see the class): max(EWMA, min(last two samples)), or
   * undefined when never measured.
   */
  score(key: string): number | undefined {
    const e = this.#entries.get(key);
    return e ? scoreOf(e) : undefined;
  }

  /**
   * While `key`'s only sample is its first call's (see {@link recordSuccess}): that sample in ms,
   * an upper bound of its TTFC; `retry`: true until another outcome (success, failure or
   * caller-deadline cut) is recorded, i.e. the latency strategy should re-try it soon; `failed`:
   * true when the latest outcome since was a failure (the bound then says nothing of what the
   * next call costs: the planner ranks the key as unmeasured, after those that answered).
   * Undefined otherwise.
   */
  coldBound(key: string): { ms: number; retry: boolean; failed: boolean } | undefined {
    const e = this.#entries.get(key);
    if (!e || e.coldBound === undefined) return undefined;
    return {
      ms: e.coldBound,
      retry: e.samples + e.errors + e.callerTimeouts === e.coldBoundAt,
      failed: e.lastFailed,
    };
  }

  /**
   * Monotonic time of the last outcome (success, failure or caller-deadline cut) of `key`, or
   * undefined if never tried.
   */
  lastTriedAt(key: string): number | undefined {
    return this.#entries.get(key)?.lastUpdate;
  }

  /** A copy of the state of `key`. */
  snapshot(key: string): LatencySnapshot {
    const e = this.#entry(key);
    const sorted = this.#sorted(e);
    const q = (p: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : undefined;
    const failed = e.outcomes.filter((ok) => !ok).length;
    const model = e.model.summary();
    return {
      scoreMs: scoreOf(e),
      ewmaMs: e.ewma,
      p50Ms: q(0.5),
      p90Ms: q(0.9),
      p95Ms: q(0.95),
      p99Ms: q(0.99),
      kneeMs: model?.kneeMs,
      tailShare: model?.tailShare,
      tailExcessMs: model?.tailExcessMs,
      hedgeAfterMs: e.hedgeAfterMs,
      attempts: e.attempts,
      samples: e.samples,
      errors: e.errors,
      callerTimeouts: e.callerTimeouts,
      lowerBoundMs: e.lowerBound,
      errorRate: e.outcomes.length ? failed / e.outcomes.length : 0,
      inFlight: e.inFlight,
      lastUpdateMs: e.lastUpdate,
      down: e.model.isDown(),
    };
  }

  /**
   * The tail of `key` for deadlines and hedge delays: sample count and p95/p99 TTFC in ms, from
   * the learned distribution (O(1) when no sample arrived since the last call; never a sort).
   */
  tail(key: string): Pick<LatencySnapshot, 'samples' | 'p95Ms' | 'p99Ms'> {
    const e = this.#entries.get(key);
    const q = e?.model.quantiles();
    if (!e || !q) return { samples: e?.samples ?? 0, p95Ms: undefined, p99Ms: undefined };
    return { samples: e.samples, p95Ms: q.p95Ms, p99Ms: q.p99Ms };
  }

  /**
   * The learned distribution of `key` (tail.ts) for a decision at monotonic time `now`;
   * undefined before its first successful sample.
   */
  model(key: string, now: number): TailSummary | undefined {
    return this.#entries.get(key)?.model.at(now);
  }

  /** Notes the hedge delay computed for `key` as a first choice (reported by {@link snapshot}). */
  noteHedgeDelay(key: string, ms: number | undefined): void {
    this.#entry(key).hedgeAfterMs = ms;
  }

  /** The recent window sorted (for {@link snapshot} only: router.stats(), not the decision path). */
  #sorted(e: Entry): number[] {
    if (!e.sorted || e.sortedAt !== e.samples) {
      e.sorted = [...e.recent].sort((a, b) => a - b);
      e.sortedAt = e.samples;
    }
    return e.sorted;
  }

  /** Every key seen so far. */
  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }

  #push(ring: number[], value: number, e: Entry, cursor: 'recentNext'): void {
    if (ring.length < this.#window) ring.push(value);
    else {
      ring[e[cursor]] = value;
      e[cursor] = (e[cursor] + 1) % this.#window;
    }
  }

  #pushOutcome(e: Entry, ok: boolean): void {
    e.lastFailed = !ok;
    if (e.outcomes.length < this.#window) e.outcomes.push(ok);
    else {
      e.outcomes[e.outcomesNext] = ok;
      e.outcomesNext = (e.outcomesNext + 1) % this.#window;
    }
  }
}

/** max(EWMA, min(last, previous)): a peak counts once two samples in a row confirm it. */
function scoreOf(e: Entry): number | undefined {
  if (e.ewma === undefined) return undefined;
  if (e.last === undefined || e.previous === undefined) return e.ewma;
  return Math.max(e.ewma, Math.min(e.last, e.previous));
}
