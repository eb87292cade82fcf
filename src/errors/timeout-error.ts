import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/**
 * Phase of a call whose deadline passed: `connect` (TCP/TLS), `headers` (response status
 * line and headers), `first-chunk` (first output chunk), `idle` (gap between chunks: a stalled
 * stream), `total` (the whole call).
 */
export type TimeoutPhase = 'connect' | 'headers' | 'first-chunk' | 'idle' | 'total';

/**
 * A deadline passed. Code `TIMEOUT`. Always retryable; `phase` tells which deadline, and the
 * message names the route setting that sets it (e.g. `No chunk (stream stalled) from provider
 * 'a' within 5000 ms (idleTimeoutMs, the longest gap between chunks)`).
 */
export class TimeoutError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_TimeoutError`): `constructor.name`
  // reads 'TimeoutError' in the built package too.
  static {
    Object.defineProperty(TimeoutError, 'name', { value: 'TimeoutError' });
  }

  override readonly code = 'TIMEOUT';
  /** Which deadline passed. */
  readonly phase: TimeoutPhase;
  /** The deadline that passed, in ms. */
  readonly timeoutMs: number;

  constructor(phase: TimeoutPhase, timeoutMs: number, options: VoxrouteErrorOptions = {}) {
    const who = options.provider ? ` from provider '${options.provider}'` : '';
    const setting = SETTINGS[phase];
    super(`No ${describe(phase)}${who} within ${timeoutMs} ms${setting ? ` (${setting})` : ''}`, {
      retryable: true,
      ...options,
    });
    this.name = 'TimeoutError';
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return hasCode(error, 'TIMEOUT');
  }
}

/**
 * The route setting that sets each phase's deadline, named in the message so that a reader knows
 * what to change (`headers` has no route setting of its own).
 */
const SETTINGS: Record<TimeoutPhase, string | undefined> = {
  connect: 'connectTimeoutMs',
  headers: undefined,
  'first-chunk': 'firstChunkTimeoutMs',
  idle: 'idleTimeoutMs, the longest gap between chunks',
  total: 'totalTimeoutMs',
};

function describe(phase: TimeoutPhase): string {
  switch (phase) {
    case 'connect':
      return 'connection';
    case 'headers':
      return 'response headers';
    case 'first-chunk':
      return 'first chunk';
    case 'idle':
      return 'chunk (stream stalled)';
    case 'total':
      return 'end of stream';
  }
}
