import type { Capability } from '../types/route-result.js';

/** Version of every message and stored value voxroute writes to the shared store. */
export const FLEET_WIRE_VERSION = 1;

/** Largest message or stored value voxroute writes or reads, in bytes (UTF-16 units). */
export const MAX_MESSAGE_LENGTH = 1024;

const CAPABILITIES: readonly string[] = ['stt', 'chat', 'tts'];

/**
 * A breaker message on the fleet channel:
 * - `open`: process `id` opened its breaker of (p, c) until `u` (Unix epoch ms) for reason `r`,
 *   that is for `d` ms from when it was sent (its remaining cooldown, which needs no clock
 *   agreement; absent from the messages of voxroute versions before it was added);
 * - `close`: process `id` closed it after a successful probe (the provider is back).
 * Only names from the config, a capability, times and a reason: nothing secret.
 */
export type BreakerMessage =
  | { v: 1; t: 'open'; id: string; p: string; c: Capability; u: number; r: string; d?: number }
  | { v: 1; t: 'close'; id: string; p: string; c: Capability };

/** A compact latency summary of one (provider, capability, model), stored per process. */
export interface LatencySummary {
  v: 1;
  /** EWMA of TTFC, ms. */
  ewma: number;
  /** p95 of TTFC, ms (the EWMA when unknown). */
  p95: number;
  /** Samples behind it. */
  n: number;
  /** When it was written, Unix epoch ms. */
  at: number;
}

/** The message as a JSON string, or undefined when it would exceed {@link MAX_MESSAGE_LENGTH}. */
export function encodeMessage(message: BreakerMessage | LatencySummary): string | undefined {
  const text = JSON.stringify(message);
  return text.length <= MAX_MESSAGE_LENGTH ? text : undefined;
}

/** A breaker message read from the channel or the store; undefined when malformed or of another version. */
export function decodeBreakerMessage(text: string): BreakerMessage | undefined {
  const m = parse(text);
  if (!m || m.v !== FLEET_WIRE_VERSION || typeof m.id !== 'string' || typeof m.p !== 'string')
    return undefined;
  if (typeof m.c !== 'string' || !CAPABILITIES.includes(m.c)) return undefined;
  const c = m.c as Capability;
  if (m.t === 'close') return { v: 1, t: 'close', id: m.id, p: m.p, c };
  if (m.t !== 'open' || !Number.isFinite(m.u) || typeof m.r !== 'string') return undefined;
  const open: Extract<BreakerMessage, { t: 'open' }> = {
    v: 1,
    t: 'open',
    id: m.id,
    p: m.p,
    c,
    u: m.u as number,
    r: m.r,
  };
  if (m.d === undefined) return open;
  // A `d` that is there must be a duration: a message with a bad one is not taken by its `u`.
  if (typeof m.d !== 'number' || !Number.isFinite(m.d) || m.d < 0) return undefined;
  open.d = m.d;
  return open;
}

/**
 * Largest TTFC a latency summary may hold, ms (10 min): a larger one is no measurement (a
 * corrupt or hostile value), and as a cold-start sample it would stay in the EWMA for
 * thousands of calls.
 */
export const MAX_SUMMARY_MS = 600_000;

/**
 * A latency summary read from the store; undefined when malformed, of another version, or
 * holding a time over {@link MAX_SUMMARY_MS}.
 */
export function decodeLatencySummary(text: string): LatencySummary | undefined {
  const m = parse(text);
  if (!m || m.v !== FLEET_WIRE_VERSION) return undefined;
  const { ewma, p95, n, at } = m;
  if (![ewma, p95, n, at].every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0))
    return undefined;
  if ((ewma as number) > MAX_SUMMARY_MS || (p95 as number) > MAX_SUMMARY_MS) return undefined;
  return { v: 1, ewma: ewma as number, p95: p95 as number, n: n as number, at: at as number };
}

/**
 * The version of a message or stored value that a decoder refused, when it names a number other
 * than {@link FLEET_WIRE_VERSION} (another voxroute version wrote it); undefined otherwise.
 */
export function foreignVersion(text: string): number | undefined {
  const v = parse(text)?.v;
  return typeof v === 'number' && v !== FLEET_WIRE_VERSION ? v : undefined;
}

function parse(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_MESSAGE_LENGTH) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
