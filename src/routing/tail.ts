/**
 * The latency distribution of one (provider, capability, model), learned from its time to first
 * chunk (TTFC) samples: a body (where its normal latencies lie, up to the knee) and a tail (the
 * share of calls beyond the knee and how far beyond). Updated on every sample in O(buckets),
 * no sorting; see docs/routing.md, "Tail model".
 */

/** Width of a histogram bucket: each bucket spans x1.05 (5%). */
const BUCKET_RATIO = 1.05;
const LOG_RATIO = Math.log(BUCKET_RATIO);
/** Lowest bucket edge, ms; samples below it land in the first bucket. */
const MIN_MS = 1;
/** Buckets: 1 ms to about 110 s. */
const BUCKETS = 240;

/** Memory of the body histogram: each new sample scales the older ones by (1 - 1/BODY_SAMPLES). */
export const BODY_SAMPLES = 8;
/** Memory of the tail and failure shares, in samples, as for {@link BODY_SAMPLES}. */
export const TAIL_SAMPLES = 200;
/** Time decay of every weight, ms: a weight falls to 1/e after this long without samples. */
export const TAIL_DECAY_MS = 30_000;
/**
 * The prior: before (and long after) its samples, a provider is taken to have a tail share of
 * {@link PRIOR_TAIL_SHARE}, worth {@link PRIOR_WEIGHT} samples. As old samples decay the share
 * returns toward it, so a provider that recovered is not punished forever.
 */
export const PRIOR_TAIL_SHARE = 0.02;
export const PRIOR_WEIGHT = 4;
/**
 * The magnitude a hedge decision assumes for a tail not seen yet, as a multiple of the knee
 * (hedge-delay.ts autoHedgeDelayMs): heavy on purpose, so a hedge at the knee pays for itself
 * from the first samples (it fires only on the rare call past the knee) and the first stalls
 * of a provider are hedged rather than learned the hard way. The objective does not use it: an
 * unseen tail does not make a provider look slow.
 */
export const PRIOR_TAIL_RATIO = 8;
/** How fast a shift to a run of slow samples fades without new samples, ms (see TailModel.at). */
export const SHIFT_DECAY_MS = 5_000;
/** How unlikely under the tail share a run of tail calls must be to be taken for a move (see TailModel.at). */
export const SHIFT_EVIDENCE = 0.005;
/** The longest run of tail calls TailModel.at asks for. */
export const SHIFT_MAX_RUN = 4;
/**
 * Weight, in outcomes, of the prior of the chance of a failure right after a failure: the
 * long-run failure share (failures taken as independent until they are seen to come in bursts).
 */
export const AFTER_FAIL_PRIOR_WEIGHT = 2;
/** A gap in the histogram wider than this ratio (no sample in it) above the median ends the body. */
export const KNEE_GAP_RATIO = 1.4;
/** The knee is never below this multiple of the median (a handful of samples have no gap yet). */
export const KNEE_MIN_RATIO = 1.25;

/** A point of a discrete distribution: latency `ms` with probability `p`. */
export interface Point {
  ms: number;
  p: number;
}

/** What the model says about a provider now. */
export interface TailSummary {
  /** Successful samples folded in (undecayed count). */
  samples: number;
  /** Quantiles of the body histogram (recent samples, tail included), ms. */
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Where the provider's normal latencies end, ms. */
  kneeMs: number;
  /** Share of calls beyond the knee, in [0, 1] (prior-smoothed, time-decayed). */
  tailShare: number;
  /** Mean excess of a tail call beyond the knee, ms (the tail's magnitude; the knee itself before one is seen). */
  tailExcessMs: number;
  /** True once a call beyond the knee was seen (and not yet forgotten). */
  tailSeen: boolean;
  /** Share of attempts that failed (time-decayed), in [0, 1]. */
  failShare: number;
  /**
   * True when the provider is taken to be down (TailModel.at): its last k outcomes were failures,
   * k >= {@link shiftRun} of the failure share it had before them. Its next call is planned to
   * fail ({@link recentFailShare} 1) until it answers. Absent: not down.
   */
  down?: boolean;
  /**
   * The chance that the next attempt fails, in [0, 1], given the last outcome: after a failure,
   * the learned share of failures followed by another failure (outages come in bursts; a prior
   * worth AFTER_FAIL_PRIOR_WEIGHT outcomes at {@link failShare}), blended back to {@link failShare} with exp(-elapsed / SHIFT_DECAY_MS) since
   * that failure (TailModel.at); after a success, {@link failShare}. So one failure of a
   * provider whose failures come in bursts says an outage is under way. Absent: failShare.
   */
  recentFailShare?: number;
  /** Mean time to a failure, ms. */
  failMs: number;
  /**
   * The distribution the router reasons with: the body's buckets up to the knee, weighted to
   * (1 - tailShare), then one point at knee + tailExcessMs with tailShare; ascending.
   */
  points: Point[];
  /** Expected TTFC of that distribution, ms. */
  meanMs: number;
}

const bucketOf = (ms: number) =>
  Math.max(0, Math.min(BUCKETS - 1, Math.floor(Math.log(Math.max(ms, MIN_MS) / MIN_MS) / LOG_RATIO)));
/** Lower edges of the buckets (and of the one past the last), ms; computed once. */
const EDGES = Float64Array.from({ length: BUCKETS + 1 }, (_, b) => MIN_MS * BUCKET_RATIO ** b);
/** Representative values of the buckets: their geometric centres, ms; computed once. */
const CENTRES = Float64Array.from({ length: BUCKETS }, (_, b) => MIN_MS * BUCKET_RATIO ** (b + 0.5));
/** Lower edge of bucket b, ms. */
const edge = (b: number) => (b <= BUCKETS ? EDGES[b]! : MIN_MS * BUCKET_RATIO ** b);
/** Representative value of bucket b: its geometric centre, ms. */
const centre = (b: number) => CENTRES[b]!;

/** Quantiles that {@link TailModel.summary} reports. */
const QUANTILES = [0.5, 0.9, 0.95, 0.99] as const;
/** Buckets an empty stretch must span to end the body (KNEE_GAP_RATIO). */
const GAP_BUCKETS = Math.ceil(Math.log(KNEE_GAP_RATIO) / LOG_RATIO);

/** The quantile buckets and knee of a body histogram (see TailModel's #shape). */
interface Shape {
  medianBucket: number;
  p90Bucket: number;
  p95Bucket: number;
  p99Bucket: number;
  kneeMs: number;
  /** Weight below which a bucket counts as empty. */
  empty: number;
}

// Indices into TailModel's scalar state (see its #s).
/** Body histogram's total weight, and when it was last decayed (NaN: never). */
const S_HIST_WEIGHT = 0;
const S_HIST_AT = 1;
/** Tail counters: total weight, weight beyond the knee. */
const S_N = 2;
const S_TAIL = 3;
/** Failures' weight and their summed duration (ms). */
const S_FAIL = 4;
const S_FAIL_MS = 5;
/** Outcomes that followed a failure, and failures among them (tail counters' memory). */
const S_AFTER_FAIL = 6;
const S_FAIL_AFTER_FAIL = 7;
/** When the last outcome came in; when the tail counters were last decayed (NaN: never). */
const S_LAST_OUTCOME_AT = 8;
const S_COUNTERS_AT = 9;
/** When the last successful sample (or caller-deadline cut beyond the knee) came in. */
const S_LAST_AT = 10;
/** Failures in a row since the last success, and the failure share just before the first of them. */
const S_FAIL_RUN = 11;
const S_RUN_BASE_SHARE = 12;
const S_SIZE = 13;

function newState(): Float64Array {
  const s = new Float64Array(S_SIZE);
  s[S_HIST_AT] = Number.NaN;
  s[S_COUNTERS_AT] = Number.NaN;
  return s;
}

/**
 * One provider's TTFC distribution. Every update costs O(240) (one pass over the histogram);
 * {@link summary} is cached until the next update.
 */
export class TailModel {
  readonly #hist = new Float64Array(BUCKETS);
  /** Histogram of the tail calls' TTFC (same buckets and memory as the tail counters). */
  readonly #tailHist = new Float64Array(BUCKETS);
  /**
   * The model's scalar state, ms and weights, indexed by the S_ constants: in a Float64Array, not
   * in fields, so that no field changes representation (from a small integer to a double) at the
   * first sample. Such a change gives the class a new hidden class, and code optimized for the
   * old one (the tracker's, the attempt loop's) would be thrown away when a new provider,
   * capability or model is first recorded.
   */
  readonly #s = newState();
  /** Whether the last outcome was a failure. */
  #lastFailed = false;
  #samples = 0;
  #cached: TailSummary | undefined;
  /** The quantiles and knee of the body histogram, cached like {@link #cached} (see {@link #shape}). */
  #shapeCached: Shape | undefined;
  /**
   * The successful samples (ms) of the last SHIFT_MAX_RUN calls to start, in the order they
   * started (the latest to start at the end), whatever the order they answered in.
   */
  readonly #recent = new Float64Array(SHIFT_MAX_RUN);
  /** When each of {@link #recent}'s calls started (monotonic ms: the sample's time minus its TTFC). */
  readonly #recentStart = new Float64Array(SHIFT_MAX_RUN);
  /** How many of {@link #recent} are set (the last ones). */
  #recentCount = 0;

  /** Successful samples folded in. */
  get samples(): number {
    return this.#samples;
  }

  #decayHist(now: number): void {
    const s = this.#s;
    const at = s[S_HIST_AT]!;
    const w = (1 - 1 / BODY_SAMPLES) * (Number.isNaN(at) ? 1 : timeDecay(now - at));
    const hist = this.#hist;
    for (let b = 0; b < BUCKETS; b++) hist[b] = hist[b]! * w;
    s[S_HIST_WEIGHT] = s[S_HIST_WEIGHT]! * w;
    s[S_HIST_AT] = now;
  }

  #decayCounters(now: number): void {
    const s = this.#s;
    const at = s[S_COUNTERS_AT]!;
    const w = (1 - 1 / TAIL_SAMPLES) * (Number.isNaN(at) ? 1 : timeDecay(now - at));
    s[S_N] = s[S_N]! * w;
    s[S_TAIL] = s[S_TAIL]! * w;
    // A plain loop: forEach would box every element into a heap number (3.8 KB per call).
    const tailHist = this.#tailHist;
    for (let b = 0; b < BUCKETS; b++) tailHist[b] = tailHist[b]! * w;
    s[S_FAIL] = s[S_FAIL]! * w;
    s[S_FAIL_MS] = s[S_FAIL_MS]! * w;
    s[S_AFTER_FAIL] = s[S_AFTER_FAIL]! * w;
    s[S_FAIL_AFTER_FAIL] = s[S_FAIL_AFTER_FAIL]! * w;
    s[S_COUNTERS_AT] = now;
  }

  /** Counts one outcome after the last one (call after #decayCounters, before counting a failure). */
  #outcome(failed: boolean, now: number): void {
    const s = this.#s;
    if (this.#lastFailed) {
      s[S_AFTER_FAIL]! += 1;
      if (failed) s[S_FAIL_AFTER_FAIL]! += 1;
    }
    // A run of failures starts: the share it is tested against is the one before it.
    if (failed && !this.#lastFailed) s[S_RUN_BASE_SHARE] = s[S_FAIL]! / (s[S_N]! + s[S_FAIL]! + PRIOR_WEIGHT);
    s[S_FAIL_RUN] = failed ? s[S_FAIL_RUN]! + 1 : 0;
    this.#lastFailed = failed;
    s[S_LAST_OUTCOME_AT] = now;
  }

  /** Folds in a successful TTFC of `ms` at monotonic time `now`. */
  record(ms: number, now: number): void {
    // The knee before this sample decides whether it is in the tail (a sample cannot move the
    // knee past itself).
    const knee = this.#shape()?.kneeMs;
    this.#decayCounters(now);
    this.#outcome(false, now);
    const s = this.#s;
    s[S_N]! += 1;
    if (knee !== undefined && ms > knee) {
      s[S_TAIL]! += 1;
      this.#tailHist[bucketOf(ms)]! += 1;
    }
    this.#decayHist(now);
    const b = bucketOf(ms);
    this.#hist[b] = (this.#hist[b] ?? 0) + 1;
    s[S_HIST_WEIGHT]! += 1;
    this.#samples++;
    this.#cached = undefined;
    this.#shapeCached = undefined;
    this.#pushRecent(ms, now - ms);
    s[S_LAST_AT] = now;
  }

  /**
   * Puts a sample of `ms` from a call started at `start` among {@link #recent}, in start order.
   * A slow answer arrives after the fast ones of calls that started after it: in the order of
   * answers, a few stalls of calls made in parallel would look like the latest calls and make a
   * move; in the order of starts, the calls that started since say the provider is fast.
   */
  #pushRecent(ms: number, start: number): void {
    const values = this.#recent;
    const starts = this.#recentStart;
    const first = SHIFT_MAX_RUN - this.#recentCount;
    let at = SHIFT_MAX_RUN - 1;
    while (at >= first && starts[at]! > start) at--;
    // Full, and the call started before every kept one: it is not among the last to start.
    if (at < 0) return;
    for (let k = Math.max(first, 1); k <= at; k++) {
      values[k - 1] = values[k]!;
      starts[k - 1] = starts[k]!;
    }
    values[at] = ms;
    starts[at] = start;
    this.#recentCount = Math.min(this.#recentCount + 1, SHIFT_MAX_RUN);
  }

  /**
   * Counts an answer at monotonic time `now` whose TTFC is not folded in (a cold start, see
   * `LatencyTracker.recordSuccess`): it ends a run of failures like {@link record} does,
   * and adds nothing to the latency distribution.
   */
  recordAnswer(now: number): void {
    this.#decayCounters(now);
    this.#outcome(false, now);
    this.#cached = undefined;
  }

  /**
   * The model at monotonic time `now`, for decisions. When the successful samples of the calls
   * that started last (not those that answered last: see #pushRecent) all lie beyond the knee, the provider's latency has probably moved (a drift, an overload), not just
   * hit its tail: the distribution is scaled by min(those samples) / median, a shift that fades
   * with exp(-elapsed / SHIFT_DECAY_MS) since the last sample, so a provider sidelined by a run
   * of tail calls is tried again within seconds, not at the next probe. How many in a row make
   * a move depends on the tail share s: the shortest run k >= 2 that the tail alone would give
   * with probability s^k <= SHIFT_EVIDENCE (2 for a rare tail, 3 at s = 0.1, 4 at s = 0.2), so
   * a provider that stalls on one call in five is not taken for a moved one after two stalls.
   */
  at(now: number): TailSummary | undefined {
    const base = this.summary();
    if (!base) return base;
    const summary = this.#withRecentFailures(base, now);
    const run = shiftRun(summary.tailShare);
    if (this.#recentCount < run) return summary;
    let recent = Number.POSITIVE_INFINITY;
    for (let i = SHIFT_MAX_RUN - run; i < SHIFT_MAX_RUN; i++) recent = Math.min(recent, this.#recent[i]!);
    if (recent <= summary.kneeMs) return summary;
    const weight = Math.exp(-Math.max(0, now - this.#s[S_LAST_AT]!) / SHIFT_DECAY_MS);
    return scaled(summary, 1 + weight * (recent / summary.p50Ms - 1));
  }

  /** Whether the provider is down (see {@link at}): its last k failures in a row, k >= shiftRun(f0). */
  isDown(): boolean {
    return this.#lastFailed && this.#s[S_FAIL_RUN]! >= shiftRun(this.#s[S_RUN_BASE_SHARE]!);
  }

  /**
   * `summary` with its recent failure share at `now`. After k failures in a row, k at least
   * shiftRun(f0) with f0 the failure share before the first of them (the shortest run that
   * independent failures at f0 would give with probability f0^k <= SHIFT_EVIDENCE), the provider
   * is down: an outage, not bad luck. Its next call is planned to fail (share 1, no fading) until
   * it answers: the probe after `probeAfterMs`, a fallback or a hedge. Otherwise, after a
   * failure, the learned after-failure share, fading since that failure.
   */
  #withRecentFailures(summary: TailSummary, now: number): TailSummary {
    if (!this.#lastFailed) return summary;
    if (this.isDown()) return { ...summary, recentFailShare: 1, down: true };
    const afterFail =
      (this.#s[S_FAIL_AFTER_FAIL]! + AFTER_FAIL_PRIOR_WEIGHT * summary.failShare) /
      (this.#s[S_AFTER_FAIL]! + AFTER_FAIL_PRIOR_WEIGHT);
    const w = shiftDecay(now - this.#s[S_LAST_OUTCOME_AT]!);
    return { ...summary, recentFailShare: w * afterFail + (1 - w) * summary.failShare };
  }

  /**
   * Folds in an attempt cancelled after `ms` without a first chunk (it lost a hedge): a lower
   * bound of its TTFC. Beyond the knee it is a tail call; before the knee it says nothing and
   * is ignored. Its TTFC is only known to exceed `ms`, so its weight is shared among the tail
   * calls seen slower than `ms`, in proportion to theirs (Efron's redistribution to the right).
   * When none is known it counts at the prior's tail, PRIOR_TAIL_RATIO x the knee (at `ms` if
   * that is more): what an `auto` hedge assumes of a tail not seen yet. Counting the bound
   * itself would shrink the tail's magnitude to the backup's latency as soon as the router
   * hedges every tail call, and the hedges would stop paying for themselves: the first stall
   * cut short by a hedge would stop the hedges until a stall went unhedged.
   */
  recordCensored(ms: number, now: number): void {
    const knee = this.#shape()?.kneeMs;
    if (knee === undefined || ms <= knee) return;
    this.#decayCounters(now);
    this.#s[S_N]! += 1;
    this.#s[S_TAIL]! += 1;
    const hist = this.#tailHist;
    const from = bucketOf(ms) + 1;
    let above = 0;
    for (let b = from; b < BUCKETS; b++) above += hist[b]!;
    if (above > 1e-9) for (let b = from; b < BUCKETS; b++) hist[b]! += hist[b]! / above;
    else hist[bucketOf(Math.max(ms, PRIOR_TAIL_RATIO * knee))]! += 1;
    this.#cached = undefined;
    this.#shapeCached = undefined;
  }

  /**
   * Folds in an attempt cut after `ms` by the caller's own first-chunk deadline (shorter than
   * the route's): a censored sample, as {@link recordCensored}, which beyond the knee also
   * counts among the calls that started last as a slow answer of `ms` would. A run of such cuts
   * then moves the distribution to at least `ms`, fading as a run of slow answers does (see
   * {@link at}), so a provider that keeps running past its callers' deadlines loses its place
   * and is tried again within seconds. Within the knee the cut says nothing (a caller deadline
   * tighter than the provider's normal latency) and is ignored.
   */
  recordCallerTimeout(ms: number, now: number): void {
    const knee = this.#shape()?.kneeMs;
    if (knee === undefined || ms <= knee) return;
    this.recordCensored(ms, now);
    this.#pushRecent(ms, now - ms);
    this.#s[S_LAST_AT] = now;
  }

  /** Folds in a failed attempt that took `ms`. */
  recordFailure(ms: number, now: number): void {
    this.#decayCounters(now);
    this.#outcome(true, now);
    this.#s[S_FAIL]! += 1;
    this.#s[S_FAIL_MS]! += ms;
    this.#cached = undefined;
  }

  /**
   * The p95 and p99 of the body histogram, ms (what an `auto` first-chunk deadline needs);
   * undefined before the first successful sample. Equal to {@link summary}'s, without building
   * the rest of it (cached between updates, no allocation but one small record).
   */
  quantiles(): { p95Ms: number; p99Ms: number } | undefined {
    const shape = this.#shape();
    return shape && { p95Ms: centre(shape.p95Bucket), p99Ms: centre(shape.p99Bucket) };
  }

  /**
   * The quantile buckets and the knee of the body histogram (the first part of {@link summary},
   * what {@link record} needs on every sample); cached until the next update.
   */
  #shape(): Shape | undefined {
    if (this.#samples === 0) return undefined;
    if (this.#shapeCached) return this.#shapeCached;
    const hist = this.#hist;
    const total = this.#s[S_HIST_WEIGHT]!;
    // The buckets of the 50th, 90th, 95th and 99th percentiles, in one pass over the histogram.
    const found = [BUCKETS - 1, BUCKETS - 1, BUCKETS - 1, BUCKETS - 1];
    let next = 0;
    let acc = 0;
    for (let b = 0; b < BUCKETS && next < QUANTILES.length; b++) {
      acc += hist[b]!;
      while (next < QUANTILES.length && acc >= QUANTILES[next]! * total) found[next++] = b;
    }
    const [medianBucket, p90Bucket, p95Bucket, p99Bucket] = found as [number, number, number, number];
    // The knee: the start of the first empty stretch wider than KNEE_GAP_RATIO above the median.
    const empty = total * 1e-3;
    let lastFull = medianBucket;
    let kneeBucket = p99Bucket;
    for (let b = medianBucket + 1; b < BUCKETS; b++) {
      if (hist[b]! > empty) {
        lastFull = b;
        continue;
      }
      if (b - lastFull >= GAP_BUCKETS) {
        // Any weight above the gap makes it a gap; none means the histogram ended.
        kneeBucket = lastFull;
        break;
      }
    }
    const kneeMs = Math.max(edge(kneeBucket + 1), KNEE_MIN_RATIO * centre(medianBucket));
    this.#shapeCached = { medianBucket, p90Bucket, p95Bucket, p99Bucket, kneeMs, empty };
    return this.#shapeCached;
  }

  /**
   * The model now; undefined before the first successful sample. Cached between updates: the
   * decision path pays O(240) once per new sample, not per call.
   */
  summary(): TailSummary | undefined {
    if (this.#samples === 0) return undefined;
    if (this.#cached) return this.#cached;
    const hist = this.#hist;
    const { medianBucket, p90Bucket, p95Bucket, p99Bucket, kneeMs, empty } = this.#shape()!;
    const medianMs = centre(medianBucket);
    const s = this.#s;
    const tailShare = (s[S_TAIL]! + PRIOR_WEIGHT * PRIOR_TAIL_SHARE) / (s[S_N]! + PRIOR_WEIGHT);
    // The tail's magnitude: the mean of the tail histogram beyond the knee, minus the knee.
    let tailWeight = 0;
    let tailSum = 0;
    for (let b = bucketOf(kneeMs); b < BUCKETS; b++) {
      const w = this.#tailHist[b]!;
      if (w <= 0 || centre(b) <= kneeMs) continue;
      tailWeight += w;
      tailSum += w * centre(b);
    }
    const tailSeen = tailWeight > 1e-6;
    const tailExcessMs = tailSeen ? tailSum / tailWeight - kneeMs : kneeMs;
    // Body: histogram buckets up to the knee, renormalised to (1 - tailShare).
    const points: Point[] = [];
    let bodyWeight = 0;
    for (let b = 0; b < BUCKETS && edge(b) < kneeMs; b++) bodyWeight += hist[b]!;
    for (let b = 0; b < BUCKETS && edge(b) < kneeMs; b++) {
      const w = hist[b]!;
      if (w > empty) points.push({ ms: Math.min(centre(b), kneeMs), p: (w / bodyWeight) * (1 - tailShare) });
    }
    points.push({ ms: kneeMs + tailExcessMs, p: tailShare });
    normalise(points);
    const failShare = s[S_FAIL]! / (s[S_N]! + s[S_FAIL]! + PRIOR_WEIGHT);
    this.#cached = {
      samples: this.#samples,
      p50Ms: medianMs,
      p90Ms: centre(p90Bucket),
      p95Ms: centre(p95Bucket),
      p99Ms: centre(p99Bucket),
      kneeMs,
      tailShare,
      tailExcessMs,
      tailSeen,
      failShare,
      failMs: s[S_FAIL]! > 1e-6 ? s[S_FAIL_MS]! / s[S_FAIL]! : 0,
      points,
      meanMs: points.reduce((n, x) => n + x.ms * x.p, 0),
    };
    return this.#cached;
  }
}

/**
 * Events in a row that are evidence of a change for a share `s` of such events (TailModel.at):
 * the shortest run k >= 2 with s^k <= SHIFT_EVIDENCE, at most SHIFT_MAX_RUN. Tail calls in a
 * row make a move (a drift); failures in a row at a failure share s make an outage.
 */
export function shiftRun(s: number): number {
  if (s <= 0) return 2;
  if (s >= 1) return SHIFT_MAX_RUN;
  return Math.min(SHIFT_MAX_RUN, Math.max(2, Math.ceil(Math.log(SHIFT_EVIDENCE) / Math.log(s) - 1e-9)));
}

function shiftDecay(elapsedMs: number): number {
  return Math.exp(-Math.max(0, elapsedMs) / SHIFT_DECAY_MS);
}

function timeDecay(elapsedMs: number): number {
  return Math.exp(-Math.max(0, elapsedMs) / TAIL_DECAY_MS);
}

function normalise(points: Point[]): void {
  const sum = points.reduce((n, x) => n + x.p, 0);
  if (sum > 0) for (const x of points) x.p /= sum;
}

/**
 * `summary` moved to a new typical latency: every point, quantile and the knee scaled by
 * `factor` (a provider whose typical latency drifted keeps the shape of its distribution).
 */
export function scaled(summary: TailSummary, factor: number): TailSummary {
  return {
    ...summary,
    p50Ms: summary.p50Ms * factor,
    p90Ms: summary.p90Ms * factor,
    p95Ms: summary.p95Ms * factor,
    p99Ms: summary.p99Ms * factor,
    kneeMs: summary.kneeMs * factor,
    tailExcessMs: summary.tailExcessMs * factor,
    points: summary.points.map((p) => ({ ms: p.ms * factor, p: p.p })),
    meanMs: summary.meanMs * factor,
  };
}
