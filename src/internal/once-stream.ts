import { RequestError } from '../errors/request-error.js';

/** How the run behind a {@link onceStream} settles its `result`. */
export interface Settle<R> {
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** What a {@link onceStream} is, for the error of a second iteration. */
export interface OnceStreamKind {
  /** The type the caller holds, e.g. `'RoutedStream'`. */
  name: string;
  /** How the caller gets a new one, e.g. `'call router.chat(), stt() or tts() again'`. */
  again: string;
}

/** The stream of `router.tts()`, `stt()` and `chat()`. */
export const ROUTED_STREAM: OnceStreamKind = {
  name: 'RoutedStream',
  again: 'call router.tts(), stt() or chat() again for a new call',
};

/** The stream of `voiceTurn()`. */
export const VOICE_TURN: OnceStreamKind = {
  name: 'VoiceTurn',
  again: 'call voiceTurn() again for a new turn',
};

/**
 * The error of a second `[Symbol.asyncIterator]()` (a second `for await`) over a stream of
 * `kind`: a RequestError of field `'stream'`, e.g. `Invalid request field 'stream': this
 * RoutedStream was already iterated; a stream can be iterated only once (call router.tts(),
 * stt() or chat() again for a new call)`. Nothing is yielded and no provider is contacted.
 */
export function iteratedTwice(kind: OnceStreamKind): RequestError {
  return new RequestError(
    'stream',
    `this ${kind.name} was already iterated; a stream can be iterated only once (${kind.again})`,
  );
}

/**
 * A stream that can be iterated once, with a `result` that the run behind it settles
 * (RoutedStream, VoiceTurn). Nothing starts until the caller iterates: the first
 * `[Symbol.asyncIterator]()` calls `start(settle)`. `result` never causes an unhandled
 * rejection by itself.
 *
 * `result` read before the iteration starts cannot be settled by the run (there is none yet):
 * `unstarted` then says what ends it meanwhile (the call's abort, the router's close, see
 * rejectOnAbort); it is called at that first read only, and what it returns (stop listening)
 * when the iteration starts. A stream whose `result` is not read first costs nothing more.
 * @throws RequestError (field `'stream'`, see {@link iteratedTwice}) from a second
 * `[Symbol.asyncIterator]()`: the second `for await` over the stream throws it.
 */
export function onceStream<R, I extends AsyncIterator<unknown>>(
  kind: OnceStreamKind,
  start: (settle: Settle<R>) => I,
  unstarted?: (settle: Settle<R>) => () => void,
): { result: Promise<R>; [Symbol.asyncIterator](): I } {
  return new OnceStream(kind, start, unstarted);
}

/** {@link onceStream}: one object per stream, its methods on the prototype (no closures per call). */
class OnceStream<R, I extends AsyncIterator<unknown>> {
  readonly #kind: OnceStreamKind;
  #start: ((settle: Settle<R>) => I) | undefined;
  readonly #settle = new LazyResult<R>();
  #unstarted: ((settle: Settle<R>) => () => void) | undefined;
  #stopWatching: (() => void) | undefined;

  constructor(
    kind: OnceStreamKind,
    start: (settle: Settle<R>) => I,
    unstarted?: (settle: Settle<R>) => () => void,
  ) {
    this.#kind = kind;
    this.#start = start;
    this.#unstarted = unstarted;
  }

  get result(): Promise<R> {
    const unstarted = this.#unstarted;
    if (unstarted !== undefined && this.#start !== undefined) {
      this.#unstarted = undefined;
      this.#stopWatching = unstarted(this.#settle);
    }
    return this.#settle.promise();
  }

  [Symbol.asyncIterator](): I {
    const start = this.#start;
    if (start === undefined) throw iteratedTwice(this.#kind);
    this.#start = undefined;
    this.#unstarted = undefined;
    this.#stopWatching?.();
    return start(this.#settle);
  }
}

/**
 * A result settled once (later settlements are ignored, as for a promise), whose promise is
 * built only when someone asks for it: most callers of a stream never read `result`, and a
 * promise, its two resolvers and its rejection handler per call are then saved. The promise
 * never causes an unhandled rejection by itself.
 */
class LazyResult<R> implements Settle<R> {
  #settled = false;
  #ok = false;
  #value: R | undefined;
  #error: unknown;
  #promise: Promise<R> | undefined;
  #resolve: ((value: R) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;

  resolve(value: R): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#ok = true;
    this.#value = value;
    this.#resolve?.(value);
  }

  reject(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#error = error;
    this.#reject?.(error);
  }

  promise(): Promise<R> {
    if (this.#promise === undefined) {
      const promise = !this.#settled
        ? new Promise<R>((resolve, reject) => {
            this.#resolve = resolve;
            this.#reject = reject;
          })
        : this.#ok
          ? Promise.resolve(this.#value as R)
          : Promise.reject(this.#error);
      promise.catch(() => {});
      this.#promise = promise;
    }
    return this.#promise;
  }
}
