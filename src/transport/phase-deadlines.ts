import type { TimeoutPhase } from '../errors/index.js';
import type { Clock } from '../internal/clock.js';
import { STALL_TOLERANCE_MS } from '../internal/stall.js';
import type { Deadlines } from './types.js';

/**
 * The deadlines of one HTTP exchange, enforced with a single timer on the injected Clock.
 *
 * Phases and when each one is armed (all in ms; 0 or omitted means none):
 * - `connect`: from the start until a connection is ready (only where the wire can observe it);
 * - `headers`: from the start until the response headers;
 * - `first-chunk` (`firstByteMs`): from the start until the first body byte;
 * - `idle`: the longest time without body bytes arriving from the socket, counted from the
 *   first body byte, then from each chunk. The wait for the first byte is not idle time: it is
 *   the first-byte deadline's, or (when there is none here) the router's first-chunk deadline's,
 *   so a provider that sends its headers at once and its first data late (a long prompt, a cold
 *   model) gets what `firstChunkTimeoutMs` allows; unless the wire calls `startIdle()` (an
 *   answer already owed). Not counted while the exchange has stopped
 *   reading because the consumer is slow (backpressure): that stall is not the provider's;
 * - `total`: from the start until the body ends.
 *
 * Cost per body chunk: one `clock.now()` when an idle deadline is set, nothing else. The timer is
 * set for the earliest pending deadline; when it fires it compares timestamps and either reports
 * the expired phase or sets itself again for the next one. No timer is created per chunk.
 */
export class PhaseDeadlines {
  private readonly clock: Clock;
  private readonly start: number;
  private readonly connectMs: number;
  private readonly headersMs: number;
  private readonly firstByteMs: number;
  private readonly idleMs: number;
  private readonly totalMs: number;
  private readonly onExpire: (phase: TimeoutPhase, timeoutMs: number, stalled: boolean) => void;
  private connected: boolean;
  private headersSeen = false;
  private firstByteSeen = false;
  /** True once {@link startIdle} was called: idle counts before the first byte. */
  private idleEarly = false;
  private paused = false;
  private idleHeld = false;
  private stopped = false;
  private lastActivity = 0;
  private timer: unknown = undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** The phase of the due time {@link next} returned last. */
  private nextPhase: TimeoutPhase | undefined = undefined;
  /** True once a late timer was given its extra turn (see src/internal/stall.ts). */
  private stalled = false;
  private readonly fire = (): void => {
    const late = this.clock.now() - this.timerAt;
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (late > STALL_TOLERANCE_MS && !this.stalled) {
      // The event loop was blocked: let waiting socket reads run before judging the provider.
      this.stalled = true;
      this.timerAt = this.clock.now();
      this.timer = this.clock.setTimeout(this.fire, 0);
      return;
    }
    this.check();
  };

  /**
   * @param clock Time source.
   * @param deadlines The request's deadlines.
   * @param observesConnect False when the wire cannot tell when a connection is ready (fetch):
   *   the connect deadline is then not enforced (the headers deadline covers that time).
   * @param onExpire Called once, with the phase whose deadline passed, its length in ms, and
   *   whether the event loop was blocked when it passed (the router's stall, not the provider's).
   */
  constructor(
    clock: Clock,
    deadlines: Deadlines | undefined,
    observesConnect: boolean,
    onExpire: (phase: TimeoutPhase, timeoutMs: number, stalled: boolean) => void,
  ) {
    this.clock = clock;
    this.start = clock.now();
    this.connectMs = observesConnect ? positive(deadlines?.connectMs) : 0;
    this.headersMs = positive(deadlines?.headersMs);
    this.firstByteMs = positive(deadlines?.firstByteMs);
    this.idleMs = positive(deadlines?.idleMs);
    this.totalMs = positive(deadlines?.totalMs);
    this.onExpire = onExpire;
    this.connected = this.connectMs === 0;
    this.arm();
  }

  /** The deadline of `phase` in ms (0 when none). */
  timeoutMsOf(phase: TimeoutPhase): number {
    switch (phase) {
      case 'connect':
        return this.connectMs;
      case 'headers':
        return this.headersMs;
      case 'first-chunk':
        return this.firstByteMs;
      case 'idle':
        return this.idleMs;
      case 'total':
        return this.totalMs;
    }
  }

  /** A connection is ready: the connect deadline no longer applies. */
  markConnected(): void {
    this.connected = true;
  }

  /** The response headers arrived. */
  markHeaders(): void {
    this.connected = true;
    this.headersSeen = true;
  }

  /**
   * Starts the idle deadline now, before the first byte: for a wire where the wait for an answer
   * already owed is the provider's silence (a streamed-text TTS socket after a flush, an STT
   * socket after the end of the audio), not the first-chunk deadline's. The first-byte deadline
   * still applies.
   */
  startIdle(): void {
    this.idleEarly = true;
    if (this.idleMs !== 0) {
      this.lastActivity = this.clock.now();
      this.arm();
    }
  }

  /** The first body byte arrived. */
  markFirstByte(): void {
    this.firstByteSeen = true;
    if (this.idleMs !== 0) {
      this.lastActivity = this.clock.now();
      this.arm();
    }
  }

  /** Body bytes arrived (hot path: one timestamp when an idle deadline is set). */
  activity(): void {
    if (this.idleMs !== 0) this.lastActivity = this.clock.now();
  }

  /** The exchange stopped (true) or restarted (false) reading for backpressure. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused && this.idleMs !== 0) {
      this.lastActivity = this.clock.now();
      this.arm();
    }
  }

  /**
   * Holds (true) or releases (false) the idle deadline, for a reason other than backpressure:
   * a streamed-text TTS adapter holds it while the provider owes no answer (see
   * `AwaitedText`). Released, the idle deadline counts from now.
   */
  holdIdle(held: boolean): void {
    this.idleHeld = held;
    if (!held && this.idleMs !== 0) {
      this.lastActivity = this.clock.now();
      this.arm();
    }
  }

  /** Clears the timer; nothing fires after this. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) {
      this.clock.clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
    }
  }

  private idleArmed(): boolean {
    return (
      this.idleMs !== 0 &&
      this.headersSeen &&
      !this.paused &&
      !this.idleHeld &&
      (this.firstByteSeen || this.idleEarly)
    );
  }

  /**
   * The earliest pending deadline: returns its due time and leaves its phase in `nextPhase`
   * (undefined when none; no tuple allocated per call).
   */
  private next(): number {
    let at = Number.POSITIVE_INFINITY;
    let phase: TimeoutPhase | undefined;
    if (!this.connected && this.start + this.connectMs < at) {
      at = this.start + this.connectMs;
      phase = 'connect';
    }
    if (this.headersMs !== 0 && !this.headersSeen && this.start + this.headersMs < at) {
      at = this.start + this.headersMs;
      phase = 'headers';
    }
    if (this.firstByteMs !== 0 && !this.firstByteSeen && this.start + this.firstByteMs < at) {
      at = this.start + this.firstByteMs;
      phase = 'first-chunk';
    }
    if (this.idleArmed() && this.lastActivity + this.idleMs < at) {
      at = this.lastActivity + this.idleMs;
      phase = 'idle';
    }
    if (this.totalMs !== 0 && this.start + this.totalMs < at) {
      at = this.start + this.totalMs;
      phase = 'total';
    }
    this.nextPhase = phase;
    return at;
  }

  private check(): void {
    if (this.stopped) return;
    const at = this.next();
    const phase = this.nextPhase;
    if (phase !== undefined && this.clock.now() >= at) {
      this.stop();
      this.onExpire(phase, this.timeoutMsOf(phase), this.stalled);
      return;
    }
    // Nothing expired (bytes came in during the extra turn): the next timer starts afresh.
    this.stalled = false;
    this.arm();
  }

  private arm(): void {
    if (this.stopped) return;
    const at = this.next();
    if (at === Number.POSITIVE_INFINITY || (this.timer !== undefined && this.timerAt <= at)) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    // Whole ms, rounded up: Node keeps one timer list per distinct duration, so a fractional
    // delay (a new value on every call) would build and queue a new list per exchange. The timer
    // fires at most 1 ms later; fire() compares timestamps either way.
    this.timer = this.clock.setTimeout(this.fire, Math.max(0, Math.ceil(at - this.clock.now())));
  }
}

function positive(ms: number | undefined): number {
  return ms !== undefined && ms > 0 && Number.isFinite(ms) ? ms : 0;
}
