import { expect } from 'vitest';

/** An error class with voxroute's `isInstance` check (true across copies of the package). */
interface ErrorKind<E> {
  readonly name: string;
  isInstance(error: unknown): error is E;
}

/**
 * Asserts that `error` is a `kind` (by its `isInstance`) and returns its fields `keys`, to be
 * compared whole with `toEqual`: one assertion names every field the test cares about, and a
 * failure shows them all.
 */
export function fieldsOf<E, K extends keyof E>(error: unknown, kind: ErrorKind<E>, ...keys: K[]): Pick<E, K> {
  expect(kind.isInstance(error), `expected a ${kind.name}, got ${String(error)}`).toBe(true);
  const e = error as E;
  return Object.fromEntries(keys.map((key) => [key, e[key]])) as Pick<E, K>;
}
