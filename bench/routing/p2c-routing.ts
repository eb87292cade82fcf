/**
 * "P2C peak-EWMA", the baseline modelled on Linkerd's and Finagle's balancers: each provider has
 * a peak-sensitive EWMA of its latency (a sample above the average replaces it at once; below,
 * it is folded in with the weight 1 - exp(-elapsed / 10 s)), multiplied by (pending + 1); two
 * providers are drawn at random and the lower cost goes first. A failed attempt's time counts
 * as a sample (the balancer sees a response time, whatever its status), and a provider never
 * measured costs 0, so it is tried. Driven through a `priority` route in the chosen order.
 */
import type { Attempt } from 'voxroute';
import type { Random } from './prng.js';

/** Decay time of the EWMA, ms (Linkerd's default). */
export const P2C_DECAY_MS = 10_000;

/** Peak-EWMA costs and power-of-two-choices draws over a fixed set of providers. */
export class P2cRouting<P extends string> {
  readonly #providers: readonly P[];
  readonly #random: Random;
  readonly #ewma = new Map<P, { value: number; at: number }>();
  readonly #pending = new Map<P, number>();

  constructor(providers: readonly P[], random: Random) {
    this.#providers = providers;
    this.#random = random;
    for (const p of providers) this.#pending.set(p, 0);
  }

  /** peak-EWMA x (pending + 1); 0 when never measured. */
  cost(p: P): number {
    return (this.#ewma.get(p)?.value ?? 0) * ((this.#pending.get(p) ?? 0) + 1);
  }

  /** The order of one call: the lower-cost of two random providers first, then the other, then the rest by cost. */
  order(): P[] {
    const n = this.#providers.length;
    const i = Math.floor(this.#random() * n);
    let j = Math.floor(this.#random() * (n - 1));
    if (j >= i) j++;
    const pair = [this.#providers[i]!, this.#providers[j]!].sort((x, y) => this.cost(x) - this.cost(y));
    const rest = this.#providers.filter((p) => !pair.includes(p)).sort((x, y) => this.cost(x) - this.cost(y));
    return [...pair, ...rest];
  }

  /** A call starts on `p` (pending + 1) or ends there (-1). */
  pending(p: P, delta: 1 | -1): void {
    this.#pending.set(p, Math.max(0, (this.#pending.get(p) ?? 0) + delta));
  }

  /** Records a finished call's attempts at time `now` (ms): first-chunk times, and failures' durations. */
  record(attempts: readonly Attempt[], now: number): void {
    for (const a of attempts) {
      const p = a.provider as P;
      if (!this.#providers.includes(p)) continue;
      const sample = a.timeToFirstChunkMs ?? (a.outcome === 'failed' ? a.durationMs : undefined);
      if (sample === undefined) continue;
      const e = this.#ewma.get(p);
      if (!e || sample > e.value) {
        this.#ewma.set(p, { value: sample, at: now });
        continue;
      }
      const w = Math.exp(-Math.max(0, now - e.at) / P2C_DECAY_MS);
      this.#ewma.set(p, { value: e.value * w + sample * (1 - w), at: now });
    }
  }
}
