import type { RouterStats } from '../routing/router-types.js';
import type { Capability } from '../types/route-result.js';

/**
 * Floor of a stage's budget deadline, in ms: however little the budget has left, an attempt
 * with a fallback behind it still gets this long before the call moves on.
 */
export const MIN_STAGE_DEADLINE_MS = 50;

/** A stage's first-chunk deadline is at least this many times its measured median TTFC. */
export const TYPICAL_TTFC_FACTOR = 2;

/**
 * A stage's per-call deadlines from what the turn's budget has left:
 *
 *     firstChunkTimeoutMs = max(50, floor((leftMs - laterExpectedMs) / 2), ceil(2 x typicalMs))
 *     hedgeAfterMs        = floor(firstChunkTimeoutMs / 2)
 *
 * Half of what remains after the later stages' expected time (so one fallback still fits), at
 * least {@link MIN_STAGE_DEADLINE_MS}, and at least {@link TYPICAL_TTFC_FACTOR} times the
 * stage's own measured median time to first chunk (`typicalMs`, 0: not measured yet): a
 * deadline below what the stage typically takes would time out most calls, which is not the
 * provider's fault; the budget is then overrun rather than the stage failed over for nothing.
 * Empty only when there is no budget. The router applies a per-call first-chunk deadline to the
 * attempts that have a fallback behind them; the route's last candidate keeps at least the
 * route's own deadline, so a spent budget makes a turn fall back sooner, never end with no
 * answer; and a per-call deadline shorter than the route's is not charged to the provider.
 */
export function stageDeadlines(
  leftMs: number | undefined,
  laterExpectedMs: number,
  typicalMs = 0,
): { firstChunkTimeoutMs?: number; hedgeAfterMs?: number } {
  if (leftMs === undefined) return {};
  const half = Math.floor((leftMs - laterExpectedMs) / 2);
  const typical =
    Number.isFinite(typicalMs) && typicalMs > 0 ? Math.ceil(TYPICAL_TTFC_FACTOR * typicalMs) : 0;
  const firstChunkTimeoutMs = Math.max(MIN_STAGE_DEADLINE_MS, Number.isFinite(half) ? half : 0, typical);
  return { firstChunkTimeoutMs, hedgeAfterMs: Math.floor(firstChunkTimeoutMs / 2) };
}

/**
 * The expected time to first chunk of a capability, in ms: the lowest median TTFC the router
 * measured among its providers of that capability (the one the latency strategy would pick);
 * 0 when nothing was measured yet.
 */
export function expectedTtfcMs(stats: RouterStats, capability: Capability): number {
  let best: number | undefined;
  for (const p of stats.providers) {
    if (p.capability !== capability || p.p50Ms === undefined) continue;
    if (best === undefined || p.p50Ms < best) best = p.p50Ms;
  }
  return best ?? 0;
}
