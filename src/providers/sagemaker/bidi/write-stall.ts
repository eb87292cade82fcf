import type { Clock } from '../../../internal/clock.js';

/**
 * The provider's stall while it holds our input back: a write handed to the HTTP/2 stream whose
 * callback has not come `ms` milliseconds later (the server stopped reading, so its flow-control
 * window is full), with no output from the server meanwhile, calls `onStall` once.
 *
 * Only time blocked in a write counts: the wait for the caller's next input chunk (a live
 * microphone pausing) is not the provider's silence, so nothing runs between writes. Output from
 * the server ({@link output}) proves it alive: a blocked write's wait counts again from then.
 * `ms` 0 or undefined: never stalls.
 */
export class WriteStall {
  readonly #clock: Clock;
  readonly #ms: number;
  readonly #onStall: () => void;
  #timer: unknown;
  #blocked = false;
  #done = false;

  /** `ms`: the idle deadline (`idleTimeoutMs`); `onStall` aborts the attempt. */
  constructor(clock: Clock, ms: number | undefined, onStall: () => void) {
    this.#clock = clock;
    this.#ms = ms !== undefined && ms > 0 ? ms : 0;
    this.#onStall = onStall;
  }

  /** A write was handed to the stream and is not flushed yet. */
  begin(): void {
    this.#blocked = true;
    this.#arm();
  }

  /** The pending write was flushed (or failed). */
  end(): void {
    this.#blocked = false;
    this.#clear();
  }

  /** The server sent output: a blocked write's wait restarts from now. */
  output(): void {
    if (this.#blocked) this.#arm();
  }

  /** Stops for good (the attempt ended). */
  dispose(): void {
    this.#done = true;
    this.#blocked = false;
    this.#clear();
  }

  #arm(): void {
    this.#clear();
    if (this.#ms === 0 || this.#done) return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#blocked && !this.#done) this.#onStall();
    }, this.#ms);
  }

  #clear(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
