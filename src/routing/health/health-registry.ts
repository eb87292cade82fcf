import type { Capability } from '../../types/route-result.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { type CircuitBreakerOptions, resolveBreakerOptions } from './options.js';
import type { BreakerReason, BreakerSnapshot, BreakerStateChange } from './types.js';

/** A breaker state change, with the (provider, capability) whose breaker it is. */
export interface HealthStateChange extends BreakerStateChange {
  provider: string;
  capability: Capability;
}

/** One row of {@link HealthRegistry.snapshot}. */
export interface HealthSnapshotEntry extends BreakerSnapshot {
  provider: string;
  capability: Capability;
}

/**
 * The circuit breakers of a router, one per (provider, capability), created lazily on first use
 * with the same {@link CircuitBreakerOptions} (clock, random source, thresholds, cooldowns).
 * A (provider, capability) without a breaker yet is healthy: closed.
 */
export class HealthRegistry {
  readonly #options: CircuitBreakerOptions;
  readonly #breakers = new Map<
    string,
    { provider: string; capability: Capability; breaker: CircuitBreaker }
  >();
  readonly #listeners = new Set<(change: HealthStateChange) => void>();
  #probeGate: ((provider: string, capability: Capability) => boolean) | undefined;

  /**
   * @param options shared by every breaker; see {@link CircuitBreakerOptions} for each default.
   * @throws ConfigError when an option is out of range (checked here, not at the first breaker).
   */
  constructor(options: CircuitBreakerOptions = {}) {
    // Resolved once: every breaker shares this object (see resolveBreakerOptions).
    this.#options = resolveBreakerOptions(options);
  }

  /** The breaker of (provider, capability), created (closed) on first use. */
  get(provider: string, capability: Capability): CircuitBreaker {
    const key = keyOf(provider, capability);
    const existing = this.#breakers.get(key);
    if (existing) return existing.breaker;
    const breaker = new CircuitBreaker(this.#options);
    breaker.probeGate = () => this.#probeGate?.(provider, capability) ?? true;
    breaker.onStateChange((change) => this.#emit({ ...change, provider, capability }));
    this.#breakers.set(key, { provider, capability, breaker });
    return breaker;
  }

  /** The breaker of (provider, capability) if one was created, without creating it. */
  peek(provider: string, capability: Capability): CircuitBreaker | undefined {
    return this.#breakers.get(keyOf(provider, capability))?.breaker;
  }

  /**
   * Whether (provider, capability) may take a call now, without taking the probe slot and
   * without creating a breaker (none yet = closed = true). See {@link CircuitBreaker.allows}.
   */
  allows(provider: string, capability: Capability, now?: number): boolean {
    return this.peek(provider, capability)?.allows(now) ?? true;
  }

  /**
   * Subscribes to the state changes of every breaker, present and future; returns a function
   * that unsubscribes. Listeners run synchronously; one that throws is reported to the options'
   * `onListenerError` and the others still run.
   */
  onStateChange(listener: (change: HealthStateChange) => void): () => void {
    const entry = (change: HealthStateChange): void => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Opens the breaker of (provider, capability) until `untilMs` (ms on the clock) for a reason
   * seen elsewhere (default `'fleet'`); see {@link CircuitBreaker.openUntil}.
   */
  openUntil(provider: string, capability: Capability, untilMs: number, reason?: BreakerReason): void {
    this.get(provider, capability).openUntil(untilMs, reason);
  }

  /**
   * Sets (or with undefined, removes) the gate a half-open breaker asks, synchronously, before
   * letting a probe go: false keeps the probe back (another process of the fleet holds the
   * probe). It must not throw and must not wait.
   */
  setProbeGate(gate: ((provider: string, capability: Capability) => boolean) | undefined): void {
    this.#probeGate = gate;
  }

  /** A snapshot of every breaker created so far, in creation order. */
  snapshot(now?: number): HealthSnapshotEntry[] {
    return [...this.#breakers.values()].map(({ provider, capability, breaker }) => ({
      provider,
      capability,
      ...breaker.snapshot(now),
    }));
  }

  /** Closes and forgets every breaker (they are created again on next use); emits nothing. */
  clear(): void {
    this.#breakers.clear();
  }

  #emit(change: HealthStateChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#options.onListenerError?.(error);
      }
    }
  }
}

function keyOf(provider: string, capability: Capability): string {
  return `${provider}\u0000${capability}`;
}
