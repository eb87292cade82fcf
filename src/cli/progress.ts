import type { CliContext } from './context.js';

/** How long a step may run before the CLI reports its progress on stderr, in ms. */
export const PROGRESS_AFTER_MS = 1000;

/** Progress of a long step, reported on stderr only once the step has run for over a second. */
export interface Progress {
  /** Sets what is being done now, e.g. `'probing ec2-a tts (2/3)'`; printed if the step is slow. */
  update(text: string): void;
  /** Stops reporting: later updates print nothing. */
  done(): void;
}

/**
 * Starts a progress reporter: nothing is printed for a step that ends within
 * {@link PROGRESS_AFTER_MS}; after that, the current text is printed as `voxroute: <text>` on
 * stderr, then each new text as it is set. Never writes to stdout.
 */
export function startProgress(ctx: CliContext, text: string): Progress {
  let current = text;
  let shown = false;
  let stopped = false;
  const timer = setTimeout(() => {
    shown = true;
    ctx.stderr(`voxroute: ${current}\n`);
  }, PROGRESS_AFTER_MS);
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
