/**
 * Fake chat candidates for the attempt-loop tests (over {@link candidate}): one that answers at
 * once, one that fails before its first item, one that stalls until its attempt is aborted, and
 * one that answers when the test releases it. Each counts its starts (`starts`).
 */
import type { AbortSource } from '../../src/internal/abort-link.js';
import type { RouteCandidate } from '../../src/routing/route-run.js';
import type { ChatEvent } from '../../src/types/chat.js';
import { deferred } from '../helpers/deferred.js';
import { aborted, candidate } from './helpers.js';

type Counted = RouteCandidate<ChatEvent> & { starts: number };

/** A chat text delta. */
export const delta = (text: string): ChatEvent => ({ type: 'text-delta', text });

/** Answers `delta(text)` at once, then ends. */
export function answering(provider: string, text = provider): Counted {
  return candidate<ChatEvent>(provider, async function* () {
    yield delta(text);
  });
}

/** Throws `error` on the first pull of its stream (lazily, before any item). */
export function failing(provider: string, error: unknown): Counted {
  return candidate<ChatEvent>(provider, async function* () {
    yield* [];
    throw error;
  });
}

/**
 * Sends nothing until its attempt's signal aborts (kept as `signal` when it starts), then yields
 * `delta(late)` if given (what the router must drop) or ends; `firstChunkMs` is its first-chunk
 * deadline.
 */
export function stalling(
  provider: string,
  late?: string,
  firstChunkMs = 0,
): Counted & { signal?: AbortSource } {
  const c: Counted & { signal?: AbortSource } = candidate<ChatEvent>(
    provider,
    async function* (attempt) {
      c.signal = attempt.signal;
      await aborted(attempt.signal);
      if (late !== undefined) yield delta(late);
    },
    firstChunkMs,
  );
  return c;
}

/** Answers `delta(text)` once the test calls `release()`. */
export function gated(provider: string, text: string): Counted & { release(): void } {
  const gate = deferred();
  const c = candidate<ChatEvent>(provider, async function* () {
    await gate.promise;
    yield delta(text);
  });
  return Object.assign(c, { release: () => gate.resolve() });
}
