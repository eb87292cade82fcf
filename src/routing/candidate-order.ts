import type { CandidateHealth } from './route-run.js';

/** Where a call stands, as {@link CandidateOrder} reads it. */
export interface OrderState {
  /** The call's position now (a number that only grows; 0 without positions). */
  position(): number;
  /** True while the candidate of that index has an attempt running. */
  isRunning(index: number): boolean;
}

/**
 * Which candidate of a call starts next: the re-planning rules of the attempt loop.
 *
 * At first the candidates are taken in the planned order, each once. After a failure after
 * output on a run with positions ({@link RouteRun.position}), the call is re-planned: from then
 * on the candidates are taken in the call's own order, skipping those running, those whose
 * circuit breaker is open, and those that failed at the call's current position. The call's
 * order is the planned order with every candidate that failed in this call moved to its back,
 * the latest failure last: the provider that took over from a failed one keeps the rest of the
 * call, and a provider that failed is tried again only after every other one that has not
 * failed since. The order is the call's alone: the next call is planned anew. A candidate
 * passed over ({@link passOver}) is never taken again.
 */
export class CandidateOrder {
  readonly #candidates: readonly { health?: CandidateHealth }[];
  readonly #state: OrderState;
  #next = 0;
  #replanned = false;
  /** The call's order: candidate indices, those that failed moved to the back (built on the first failure). */
  #order: number[] | undefined;
  /** Candidate index -> the position of its last failure (built on the first failure). */
  #failedAt: Map<number, number> | undefined;
  /** Indices never to take again (built on the first {@link passOver}). */
  #passedOver: Set<number> | undefined;

  /**
   * @param candidates the call's candidates, in the planned order
   * @param state the call's position and its attempts running
   */
  constructor(candidates: readonly { health?: CandidateHealth }[], state: OrderState) {
    this.#candidates = candidates;
    this.#state = state;
  }

  /** Index of the candidate to start next, if any (nothing is taken). */
  peek(): number | undefined {
    if (!this.#replanned) {
      let i = this.#next;
      while (this.#passedOver?.has(i)) i++;
      return i < this.#candidates.length ? i : undefined;
    }
    const pos = this.#state.position();
    const order = this.#order;
    if (order === undefined) {
      for (let i = 0; i < this.#candidates.length; i++) if (this.#eligible(i, pos)) return i;
      return undefined;
    }
    for (const i of order) if (this.#eligible(i, pos)) return i;
    return undefined;
  }

  /** Takes the candidate to start next: its index (undefined: none is left). */
  take(): number | undefined {
    const index = this.peek();
    if (index !== undefined && !this.#replanned) this.#next = index + 1;
    return index;
  }

  /**
   * The candidate of `index` failed at the call's current position: it goes to the back of the
   * call's order.
   */
  failed(index: number): void {
    this.#failedAt ??= new Map();
    this.#failedAt.set(index, this.#state.position());
    let order = this.#order;
    if (order === undefined) {
      order = [];
      for (let i = 0; i < this.#candidates.length; i++) if (i !== index) order.push(i);
      this.#order = order;
    } else order.splice(order.indexOf(index), 1);
    order.push(index);
  }

  /** The candidate of `index` is never taken from now on, in either order. */
  passOver(index: number): void {
    this.#passedOver ??= new Set();
    this.#passedOver.add(index);
  }

  /** From now on candidates are taken in the call's order (see the class comment). */
  replan(): void {
    this.#replanned = true;
  }

  #eligible(i: number, pos: number): boolean {
    return (
      this.#failedAt?.get(i) !== pos &&
      !this.#passedOver?.has(i) &&
      !this.#state.isRunning(i) &&
      this.#healthy(i)
    );
  }

  #healthy(i: number): boolean {
    return this.#candidates[i]!.health?.allows() ?? true;
  }
}
