import { didYouMean } from '../config/did-you-mean.js';
import type { VoxrouteError } from '../errors/voxroute-error.js';
import type { FleetEvent } from '../fleet/index.js';
import { callIsolated } from '../internal/isolated.js';
import { valueShape } from '../internal/value-shape.js';
import type { Capability } from '../types/route-result.js';

/** Fields every router event carries. Times are ms from a monotonic clock. */
export interface RouterEventBase {
  /** Capability of the call: `'tts'`, `'stt'` or `'chat'`. */
  capability: Capability;
  /** Name of the route used. */
  route: string;
  /** Provider the event concerns. */
  provider: string;
  /** Provider-side model or voice id. */
  model?: string;
  /** 1-based number of the attempt within the call. */
  attempt: number;
  /** Time since the call started, in ms. */
  elapsedMs?: number;
}

/** A circuit breaker changed state. */
export interface BreakerEvent {
  /** Name of the provider whose breaker changed, as in the config. */
  provider: string;
  /** Capability the breaker guards: each (provider, capability) pair has its own. */
  capability: Capability;
  /** State before the change. */
  from: 'closed' | 'open' | 'half-open';
  /**
   * State after the change: `'open'` takes the provider out of routing, `'half-open'` lets a probe through.
   */
  to: 'closed' | 'open' | 'half-open';
  /** Why, e.g. `'consecutive-failures'`, `'error-rate'`, `'auth'`, `'cooldown-over'`, `'probe-succeeded'`. */
  reason: string;
  /** When an open breaker lets a probe through again, monotonic ms; for `to: 'open'`. */
  reopenAtMs?: number;
}

/** The events of `router.on()`, by name. */
export interface RouterEvents {
  /** An attempt on a provider starts. */
  attempt: RouterEventBase;
  /** A hedged attempt starts beside one that has no first chunk yet after its hedge delay. */
  hedge: RouterEventBase;
  /** A provider's circuit breaker changed state. */
  breaker: BreakerEvent;
  /**
   * The fleet's shared store (config `health`): connected, disconnected, a failed command
   * (`error`, a message without secrets), writes dropped or messages ignored (each at most one
   * event a second).
   */
  fleet: FleetEvent;
  /** An attempt produced its first chunk; `timeToFirstChunkMs` from the attempt's start. */
  'first-chunk': RouterEventBase & { timeToFirstChunkMs: number };
  /**
   * An attempt failed and the call moves on to `next`: before its first chunk
   * (`partialOutput: false`), or after it, when the route continues the stream on another
   * provider (`midStream: 'resume'` for TTS and STT, `'continue'` for chat; `partialOutput:
   * true`). `error` is the attempt's failure as a VoxrouteError (ProviderError, TimeoutError,
   * ProtocolError...; a provider's own non-voxroute error arrives wrapped in a ProviderError, as
   * its `cause`), secrets redacted.
   */
  fallback: RouterEventBase & { error: VoxrouteError; next: string; partialOutput: boolean };
  /**
   * An attempt failed (before or after its first chunk). `error` is a VoxrouteError, as in
   * `fallback`.
   */
  error: RouterEventBase & { error: VoxrouteError; partialOutput: boolean };
}

/** Name of a router event. */
export type RouterEventName = keyof RouterEvents;

/** Every router event name, in the order the docs list them (the compiler checks the set). */
export const ROUTER_EVENT_NAMES: readonly RouterEventName[] = Object.keys({
  attempt: true,
  'first-chunk': true,
  fallback: true,
  hedge: true,
  error: true,
  breaker: true,
  fleet: true,
} satisfies Record<RouterEventName, true>) as RouterEventName[];

/**
 * Checks the arguments of `router.on()`, as strictly as the config: a JavaScript caller's typo
 * would otherwise add a listener that never fires.
 * @throws TypeError naming the unknown event (with a did-you-mean and the known names) or saying
 *   the listener is not a function.
 */
function checkListener(name: unknown, listener: unknown): void {
  if (typeof name !== 'string' || !(ROUTER_EVENT_NAMES as readonly string[]).includes(name)) {
    const near = typeof name === 'string' ? didYouMean(name, ROUTER_EVENT_NAMES) : undefined;
    const given = typeof name === 'string' ? `'${name}'` : valueShape(name);
    throw new TypeError(
      `router.on: unknown event ${given}${near ? ` (did you mean '${near}'?)` : ''}; the events are ${ROUTER_EVENT_NAMES.join(', ')}`,
    );
  }
  if (typeof listener !== 'function') {
    throw new TypeError(
      `router.on: the listener of '${name}' must be a function, got ${valueShape(listener)}`,
    );
  }
}

/** A listener of router event `E`. */
export type RouterListener<E extends RouterEventName> = (event: RouterEvents[E]) => void;

/**
 * A tiny typed event emitter. A listener that throws is isolated: the error is reported to
 * `onListenerError` and the call goes on.
 */
export class RouterEmitter {
  readonly #listeners = new Map<RouterEventName, Set<(event: never) => void>>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Adds a listener; returns a function that removes it.
   * @throws TypeError for an unknown event name or a listener that is not a function.
   */
  on<E extends RouterEventName>(name: E, listener: RouterListener<E>): () => void {
    checkListener(name, listener);
    let set = this.#listeners.get(name);
    if (!set) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    set.add(listener as (event: never) => void);
    return () => set.delete(listener as (event: never) => void);
  }

  /** True when `name` has at least one listener (an event nobody hears need not be built). */
  has(name: RouterEventName): boolean {
    const set = this.#listeners.get(name);
    return set !== undefined && set.size > 0;
  }

  /** Calls every listener of `name` with `event`. */
  emit<E extends RouterEventName>(name: E, event: RouterEvents[E]): void {
    const set = this.#listeners.get(name);
    if (!set || set.size === 0) return;
    for (const listener of set) callIsolated(listener as RouterListener<E>, [event], this.#onListenerError);
  }
}
