import { isTakeable, type Takeable } from '../internal/takeable.js';

/**
 * What the attempt loop (`drive`) hands to the call's iterator once an attempt has won: its
 * first item, and the attempt's iterator, whose other items the call's iterator passes to the
 * caller itself, by plain calls when the attempt is {@link Takeable}, rather than through one
 * more generator step and promise per item. `deliver(item)` is the loop's bookkeeping of each
 * item handed to the caller, the first included (partial text, `onDelivered`); absent when
 * there is none. The call's iterator calls it, so that the loop, which tts() and chat() share,
 * has no call site whose target differs by capability. The loop resumes when the items end, or
 * gets their failure (or the call's abort) thrown where it handed them over.
 */
export class ItemHandoff<T> {
  /** The iterator's synchronous side, when it has one. */
  readonly sync: Takeable<T> | undefined;

  constructor(
    /** The attempt's first item, not yet delivered. */
    readonly first: T,
    readonly iterator: AsyncIterator<T>,
    readonly deliver: ((item: T) => void) | undefined,
  ) {
    this.sync = isTakeable(iterator) ? iterator : undefined;
  }
}
