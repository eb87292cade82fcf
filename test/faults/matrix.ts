/**
 * The axes of the fault matrix: the faults a provider can show, the capabilities, and how a
 * cell is named. What each cell must end with is written out in expected.ts, not computed.
 */

/** Faults, in the order the issue lists them. */
export const FAULTS = [
  'refused',
  'reset before headers',
  'reset mid-stream',
  'stall before first chunk',
  'stall mid-stream',
  '429 + Retry-After',
  '500',
  '503',
  'malformed frame',
  'WS close 1006',
  'WS close 1008',
  'WS close 1011',
  'slow consumer',
] as const;
export type Fault = (typeof FAULTS)[number];

/** The faults of a transport without WebSocket close codes (HTTP, SSE, SageMaker): all but `WS close *`. */
export const HTTP_FAULTS: readonly Fault[] = FAULTS.filter((fault) => !fault.startsWith('WS close'));

export type Cap = 'tts' | 'stt' | 'chat';

export type TransportName =
  | 'HTTP'
  | 'SSE'
  | 'WebSocket'
  | 'SageMaker response stream'
  | 'SageMaker bidirectional';

/** Faults that only a WebSocket can show. */
export const WS_ONLY: readonly Fault[] = ['WS close 1006', 'WS close 1008', 'WS close 1011'];

/** Faults that happen after the provider's first output reached the caller. */
export const AFTER_FIRST: readonly Fault[] = ['reset mid-stream', 'stall mid-stream', 'slow consumer'];

/** The name of one cell, e.g. `reset mid-stream x tts x SSE (with backup)`. */
export function cellName(fault: Fault, cap: Cap, transport: TransportName, backup: boolean): string {
  return `${fault} x ${cap} x ${transport} (${backup ? 'with backup' : 'alone'})`;
}

/**
 * Route deadlines of every cell (ms), on the router's fake clock (wire/run.ts): time moves only
 * when a stall or the slow consumer moves it. The idle deadline is 100 ms longer than the
 * first-chunk one: a stall before the first output (its first body bytes may already have
 * started the idle deadline) then ends on the first-chunk deadline.
 */
export const DEADLINES = { firstChunkTimeoutMs: 300, idleTimeoutMs: 400, connectTimeoutMs: 1_000 } as const;

/** How long (router clock) the slow consumer holds the stream after its first item: longer than idleTimeoutMs. */
export const SLOW_CONSUMER_PAUSE_MS = 450;

/** The Retry-After the 429 cells send, in seconds. */
export const RETRY_AFTER_S = 7;
