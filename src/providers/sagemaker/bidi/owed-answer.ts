import type { Clock } from '../../../internal/clock.js';
import { withDeadline } from '../deadline.js';

/** Where the input of a bidirectional stream is: all sent yet, and when it will be. */
export interface InputProgress {
  /** Whether all of the input was sent (every part, the end frame, the end of the stream). */
  done(): boolean;
  /** Resolves when all of the input was sent (never, if it never is). */
  ended: Promise<void>;
}

/**
 * `next` (the response headers, the next body chunk), bounded by `ms` on `clock` once all input
 * was sent: from then on the provider owes an answer, so its silence is a stall. A wait that
 * began while input still flowed gets its deadline when the input ends, counted from then
 * (before that only a write blocked by the server's flow control counts, see WriteStall).
 * `onTimeout` runs at the deadline and returns the error to reject with. `ms` 0 or undefined:
 * no deadline.
 */
export async function answerOwed<T>(
  next: Promise<T>,
  input: InputProgress,
  ms: number | undefined,
  clock: Clock,
  onTimeout: () => Error,
): Promise<T> {
  if (!input.done()) {
    const first = await Promise.race([
      next.then(
        () => 'answer' as const,
        () => 'answer' as const,
      ),
      input.ended.then(() => 'input' as const),
    ]);
    if (first === 'answer') return next;
  }
  return withDeadline(next, ms, clock, onTimeout);
}
