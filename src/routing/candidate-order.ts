import type { CandidateHealth } from './route-run.js';

/** Where a call stands, as {@link CandidateOrder} reads it. */
export interface OrderState {
  /** The call's position now (a number that only grows; 0 without positions). */
  position(): number;
  /** True while the candidate of that index has an attempt running. */
  isRunning(index: number): boolean;
}

/**
 * Which candidate of a call starts next: the re-planning and stand-in rules of the attempt loop.
 *
 * At first the candidates are taken in the planned order, each once. After a failure after
 * output on a run with positions ({@link RouteRun.position}), the call is re-planned: from then
 * on the candidates are taken in the route's order, skipping those running, those whose circuit
 * breaker is open, and those that failed at the call's current position. A candidate started
 * while an earlier one, healthy, is passed over only because it failed at this position stands
 * in for it (see {@link RouteCandidate.start}). A candidate passed over ({@link passOver}) is
 * never taken again.
 */
export class CandidateOrder {
  readonly #candidates: readonly { health?: CandidateHealth }[];
  readonly #state: OrderState;
  #next = 0;
  #replanned = false;
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
    for (let i = 0; i < this.#candidates.length; i++) if (this.#eligible(i, pos)) return i;
    return undefined;
  }

  /** Takes the candidate to start next: its index, and whether it stands in at `position`. */
  take(): { index: number; standIn: boolean; position: number } | undefined {
    const index = this.peek();
    if (index === undefined) return undefined;
    if (!this.#replanned) this.#next = index + 1;
    const position = this.#state.position();
    // An earlier candidate, healthy, passed over only because it failed here: this one stands in.
    let standIn = false;
    if (this.#replanned)
      for (let j = 0; j < index; j++)
        if (this.#failedAt?.get(j) === position && this.#healthy(j)) standIn = true;
    return { index, standIn, position };
  }

  /** The candidate of `index` failed at the call's current position. */
  failed(index: number): void {
    this.#failedAt ??= new Map();
    this.#failedAt.set(index, this.#state.position());
  }

  /** The candidate of `index` is never taken from now on, in either order. */
  passOver(index: number): void {
    this.#passedOver ??= new Set();
    this.#passedOver.add(index);
  }

  /** From now on candidates are taken in the route's order (see the class comment). */
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
