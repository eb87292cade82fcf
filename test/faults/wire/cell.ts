/** What a transport's faulty server is told about the cell it serves. */
import type { Cap, Fault, TransportName } from '../matrix.js';
import type { Scope } from './scope.js';

export interface CellContext {
  fault: Fault;
  cap: Cap;
  /** Resolves once the caller received the provider's first output. */
  firstSeen: Promise<void>;
  /**
   * Called by the server, in the stall and slow-consumer faults, once it has written all it
   * will write (a streamed output's first piece: once the caller has seen it): from then on the
   * cell may let time pass (see quiet.ts).
   */
  doneWriting: () => void;
  /** Where the server registers what must be closed at the end of the cell. */
  scope: Scope;
}

/** One capability on one transport: starts the faulty primary, gives its provider config. */
export type StartPrimary = (ctx: CellContext) => Promise<Record<string, unknown>>;

/** A transport of the matrix: the faults it can show and the capabilities it carries. */
export interface Transport {
  name: TransportName;
  faults: readonly Fault[];
  caps: Partial<Record<Cap, StartPrimary>>;
}
