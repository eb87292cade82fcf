/**
 * "Mean routing", the baseline modelled on LiteLLM's lowest-latency strategy as issue 6
 * describes it: each provider is scored by the plain mean of its last samples, a failed
 * attempt's elapsed time counts as a sample (so a provider that fails fast looks fast), and a
 * provider with no sample yet scores 0 (so a new one gets a burst). Providers are tried from
 * the lowest mean up; the router is driven with a `priority` route in that order.
 */
import type { Attempt } from 'voxroute';

/** Samples kept per provider. */
export const MEAN_WINDOW = 10;

/** Scores providers by the mean of their recent samples and orders them. */
export class MeanRouting<P extends string> {
  readonly #providers: readonly P[];
  readonly #samples = new Map<P, number[]>();

  /** @param providers the providers, in the order that breaks ties. */
  constructor(providers: readonly P[]) {
    this.#providers = providers;
    for (const p of providers) this.#samples.set(p, []);
  }

  /** The mean of `provider`'s recent samples in ms; 0 when it has none. */
  mean(provider: P): number {
    const list = this.#samples.get(provider) ?? [];
    return list.length === 0 ? 0 : list.reduce((n, x) => n + x, 0) / list.length;
  }

  /** The providers from the lowest mean to the highest (ties keep the listed order). */
  order(): P[] {
    return [...this.#providers].sort(
      (x, y) => this.mean(x) - this.mean(y) || this.#providers.indexOf(x) - this.#providers.indexOf(y),
    );
  }

  /**
   * Records a finished call's attempts: a success's time to first chunk, and a failure's time
   * until it failed (the flaw this baseline stands for). Aborted attempts are not recorded.
   */
  record(attempts: readonly Attempt[]): void {
    for (const attempt of attempts) {
      const list = this.#samples.get(attempt.provider as P);
      if (!list) continue;
      let sample: number | undefined;
      if (attempt.timeToFirstChunkMs !== undefined) sample = attempt.timeToFirstChunkMs;
      else if (attempt.outcome === 'failed') sample = attempt.durationMs;
      if (sample === undefined) continue;
      list.push(sample);
      if (list.length > MEAN_WINDOW) list.shift();
    }
  }
}
