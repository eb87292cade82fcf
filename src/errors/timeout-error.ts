import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/**
 * Phase of a call whose deadline passed: `connect` (TCP/TLS), `headers` (response status
 * line and headers), `first-chunk` (first output chunk), `idle` (gap between chunks: a stalled
 * stream), `total` (the whole call).
 */
export type TimeoutPhase = 'connect' | 'headers' | 'first-chunk' | 'idle' | 'total';

/**
 * The public option whose deadline passed, as {@link TimeoutError.setting} names it:
 * - `'connectTimeoutMs'`: the route's connect deadline (phase `connect`);
 * - `'firstChunkTimeoutMs'`: the first-chunk deadline (phase `first-chunk`), the route's or the
 *   call's own (`firstChunkTimeoutMs` in the request, which a voice turn's `budgetMs` sets);
 * - `'idleTimeoutMs'`: the route's longest gap between chunks (phase `idle`);
 * - `'totalTimeoutMs'`: the route's deadline of a whole call (phase `total`);
 * - `'deadlineMs'`: the call's own deadline of the whole call (`deadlineMs` in the request,
 *   phase `total`), which replaces the route's `totalTimeoutMs` for that call.
 */
export type TimeoutSetting =
  | 'connectTimeoutMs'
  | 'firstChunkTimeoutMs'
  | 'idleTimeoutMs'
  | 'totalTimeoutMs'
  | 'deadlineMs';

/** Options of a {@link TimeoutError}. */
export interface TimeoutErrorOptions extends VoxrouteErrorOptions {
  /**
   * The option whose deadline passed. Default: the route setting of the phase (`connect`:
   * `connectTimeoutMs`, `first-chunk`: `firstChunkTimeoutMs`, `idle`: `idleTimeoutMs`, `total`:
   * `totalTimeoutMs`; `headers`: none, no option sets it on its own).
   */
  setting?: TimeoutSetting;
}

/**
 * A deadline passed. Code `TIMEOUT`. Always retryable; `phase` tells which deadline, `setting`
 * which option set it, and the message names that option (e.g. `No chunk (stream stalled) from
 * provider 'a' within 5000 ms (idleTimeoutMs, the longest gap between chunks)`, `No end of
 * stream within 800 ms (deadlineMs)`).
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
  /**
   * The public option whose deadline passed (see {@link TimeoutSetting}), e.g.
   * `'firstChunkTimeoutMs'` or `'deadlineMs'`; undefined for phase `headers`, which no option
   * sets on its own.
   */
  readonly setting: TimeoutSetting | undefined;

  /**
   * The message is built from `phase`, `timeoutMs` (ms), `options.provider` and `options.setting` (default: the route setting
   * for the phase), e.g. `No first chunk from provider 'a' within 800 ms (firstChunkTimeoutMs)`.
   * `options.retryable` defaults to true.
   */
  constructor(phase: TimeoutPhase, timeoutMs: number, options: TimeoutErrorOptions = {}) {
    const who = options.provider ? ` from provider '${options.provider}'` : '';
    const setting = options.setting ?? SETTINGS[phase];
    const named = setting === undefined ? '' : ` (${setting}${setting === 'idleTimeoutMs' ? IDLE_NOTE : ''})`;
    const { setting: _, ...rest } = options;
    super(`No ${describe(phase)}${who} within ${timeoutMs} ms${named}`, {
      retryable: true,
      ...rest,
    });
    this.name = 'TimeoutError';
    this.phase = phase;
    this.timeoutMs = timeoutMs;
    this.setting = setting;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return hasCode(error, 'TIMEOUT');
  }
}

/** What the idle deadline is, said with its name (it is easily read as "the whole call"). */
const IDLE_NOTE = ', the longest gap between chunks';

/**
 * The route setting that sets each phase's deadline by default, named in the message so that a
 * reader knows what to change (`headers` has no route setting of its own).
 */
const SETTINGS: Record<TimeoutPhase, TimeoutSetting | undefined> = {
  connect: 'connectTimeoutMs',
  headers: undefined,
  'first-chunk': 'firstChunkTimeoutMs',
  idle: 'idleTimeoutMs',
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
