import type { RouterStats } from '../routing/router-types.js';
import type { Capability } from '../types/route-result.js';

/** Below this, a stage keeps its route's own deadline: a budget already spent must not starve it. */
export const MIN_STAGE_DEADLINE_MS = 50;

/**
 * A stage's per-call deadlines from what the turn's budget has left: half of what remains
 * after the later stages' expected time (so one fallback still fits), and a hedge delay of half
 * that. Empty when there is no budget or it leaves less than {@link MIN_STAGE_DEADLINE_MS}.
 */
export function stageDeadlines(
  leftMs: number | undefined,
  laterExpectedMs: number,
): { firstChunkTimeoutMs?: number; hedgeAfterMs?: number } {
  if (leftMs === undefined) return {};
  const firstChunkTimeoutMs = Math.floor((leftMs - laterExpectedMs) / 2);
  if (!(firstChunkTimeoutMs >= MIN_STAGE_DEADLINE_MS)) return {};
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
