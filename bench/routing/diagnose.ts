/**
 * Why a strategy is slower than the oracle: wrong first choices, hedges that could not win,
 * tails left unhedged, and scores stuck above a provider's median. Figures for the report.
 */
import type { StrategyResult } from './execute.js';
import { PROVIDERS, type ProviderName, type Scenario, typicalMs } from './scenario.js';

/** What {@link diagnose} finds in one strategy's run. */
export interface Diagnosis {
  /**
   * First choices of a provider whose typical (median) latency at that request was at least
   * 1.5x that of the typically fastest provider not failing the request: avoidable, since a
   * router can learn medians; by provider.
   */
  slowFirstChoices: Record<string, number>;
  /** Hedges whose second attempt won, by first provider. */
  hedgesWon: Record<string, number>;
  /** Hedges whose first attempt still won (the extra request bought nothing), by first provider. */
  hedgesLost: Record<string, number>;
  /**
   * Failed attempts by provider, role and when: `b hedge in outage` counts hedges sent to b
   * during one of its outage bursts that failed. Role: `first` (the call's first attempt),
   * `hedge` (the second attempt, started while the first was still running), `fallback` (any
   * other: after a failure, including the replacement of a failed hedge). Each failed attempt
   * beyond the first of a call is an extra request that the hedge budget pays for.
   */
  failedAttempts: Record<string, number>;
  /** Requests in c's tail that went to c first and got no hedge. */
  unhedgedTails: number;
  /** Requests in c's tail that went to c first. */
  tailsOnC: number;
  /**
   * Per provider: the longest stretch (ms of run time, from the 250 ms score readings) during
   * which its latency score stayed above twice its typical (median) latency at that time.
   */
  longestInflatedMs: Record<string, number>;
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Examines one strategy's run against the scenario. */
export function diagnose(scenario: Scenario, result: StrategyResult): Diagnosis {
  const n = scenario.requests;
  const d: Diagnosis = {
    slowFirstChoices: {},
    hedgesWon: {},
    hedgesLost: {},
    failedAttempts: {},
    unhedgedTails: 0,
    tailsOnC: 0,
    longestInflatedMs: {},
  };
  const tails = new Set(scenario.tailRequests);
  for (const call of result.calls) {
    const i = call.index;
    const [first, second] = call.attempts;
    if (!first) continue;
    const available = PROVIDERS.filter((p) => !scenario.outcomes[p][i]!.fails);
    const best = Math.min(...available.map((p) => typicalMs(scenario, p, i)));
    if (typicalMs(scenario, first.provider as ProviderName, i) >= 1.5 * best)
      bump(d.slowFirstChoices, first.provider);
    const hedged = second !== undefined && (first.outcome === 'aborted' || second.outcome === 'aborted');
    if (hedged) bump(first.outcome === 'aborted' ? d.hedgesWon : d.hedgesLost, first.provider);
    const outage = scenario.bursts.some(([from, to]) => i >= from && i < to);
    call.attempts.forEach((a, k) => {
      if (a.outcome !== 'failed') return;
      const role = k === 0 ? 'first' : k === 1 && first.outcome !== 'failed' ? 'hedge' : 'fallback';
      bump(d.failedAttempts, `${a.provider} ${role}${outage ? ' in outage' : ''}`);
    });
    if (tails.has(i) && first.provider === 'c') {
      d.tailsOnC++;
      if (!hedged) d.unhedgedTails++;
    }
  }
  // The request that arrived last before run time t: its index tells the scenario's "now".
  const requestAt = (tMs: number) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (scenario.arrivalsMs[mid]! <= tMs) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const p of PROVIDERS) {
    const points = result.trace.filter((t) => t.provider === p);
    let longest = 0;
    let since: number | undefined;
    for (const t of points) {
      const inflated = t.scoreMs !== undefined && t.scoreMs > 2 * typicalMs(scenario, p, requestAt(t.tMs));
      if (inflated) since ??= t.tMs;
      else since = undefined;
      if (since !== undefined) longest = Math.max(longest, t.tMs - since);
    }
    d.longestInflatedMs[p] = longest;
  }
  return d;
}

/**
 * One line per finding, for the console and the docs. `scored`: the strategy orders providers
 * by the router's scores (the `latency` strategies), so the score line is relevant.
 */
export function describe(d: Diagnosis, scored: boolean): string[] {
  const list = (m: Record<string, number>) =>
    Object.keys(m).length === 0
      ? 'none'
      : Object.entries(m)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
  const won = Object.values(d.hedgesWon).reduce((x, y) => x + y, 0);
  const lost = Object.values(d.hedgesLost).reduce((x, y) => x + y, 0);
  const lines = [
    `first choices typically >= 1.5x slower than the best available: ${list(d.slowFirstChoices)}`,
  ];
  if (won + lost > 0) {
    lines.push(
      `hedges won by the second attempt: ${won} (${list(d.hedgesWon)}); lost, the first answered first: ${lost} (${list(d.hedgesLost)})`,
    );
  }
  lines.push(`failed attempts: ${list(d.failedAttempts)}`);
  lines.push(
    `c's tail requests sent to c first: ${d.tailsOnC}, of which without a hedge: ${d.unhedgedTails}`,
  );
  if (scored) {
    lines.push(
      `longest time a score stayed above 2x its provider's median latency: ${PROVIDERS.map((p) => `${p} ${(d.longestInflatedMs[p]! / 1000).toFixed(1)} s`).join(', ')}`,
    );
  }
  return lines;
}
