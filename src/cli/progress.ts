import type { CliContext } from './context.js';

/** How long a step may run before the CLI reports its progress on stderr, in ms, by default. */
export const PROGRESS_AFTER_MS = 1000;

/**
 * The environment variable that sets that delay instead, in ms (a whole number >= 0; anything
 * else is ignored). Scripts and tests that compare stderr exactly set it high, so that a slow
 * machine does not add a progress line.
 */
export const PROGRESS_AFTER_MS_VAR = 'VOXROUTE_PROGRESS_AFTER_MS';

/** The progress delay for `ctx`: {@link PROGRESS_AFTER_MS_VAR} if valid, else {@link PROGRESS_AFTER_MS}. */
export function progressAfterMs(ctx: CliContext): number {
  const set = (ctx.env ?? process.env)[PROGRESS_AFTER_MS_VAR];
  return set !== undefined && /^\d{1,10}$/.test(set) ? Number(set) : PROGRESS_AFTER_MS;
}

/** Progress of a long step, reported on stderr only once the step has run for over a second. */
export interface Progress {
  /** Sets what is being done now, e.g. `'probing ec2-a tts (2/3)'`; printed if the step is slow. */
  update(text: string): void;
  /** Stops reporting: later updates print nothing. */
  done(): void;
}

/**
 * Starts a progress reporter: nothing is printed for a step that ends within
 * {@link progressAfterMs} (default {@link PROGRESS_AFTER_MS}); after that, the current text is printed as `voxroute: <text>` on
 * stderr, then each new text as it is set. Never writes to stdout.
 */
export function startProgress(ctx: CliContext, text: string): Progress {
  let current = text;
  let shown = false;
  let stopped = false;
  const timer = setTimeout(() => {
    shown = true;
    ctx.stderr(`voxroute: ${current}\n`);
  }, progressAfterMs(ctx));
  timer.unref?.();
  return {
    update(next) {
      current = next;
      if (shown && !stopped) ctx.stderr(`voxroute: ${next}\n`);
    },
    done() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
