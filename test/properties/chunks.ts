/** Shared arbitraries of the property tests: a byte body cut into chunks at arbitrary points. */
import fc from 'fast-check';
import { SEEDED } from '../helpers/property-seed.js';

/** Cut points (any naturals; taken modulo the body length + 1). */
export const cutsArb = fc.array(fc.nat({ max: 1_000_000 }), { maxLength: 24 });

/** `bytes` cut at `cuts` (each modulo length + 1, sorted, duplicates giving empty chunks). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = cuts.map((c) => c % (bytes.byteLength + 1)).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.slice(at, p));
    at = p;
  }
  out.push(bytes.slice(at));
  return out;
}

/** The chunks as an async iterable, each its own turn (as a socket delivers them). */
export async function* source(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

/** What an async iteration produced: its items, then the error it ended with (if any). */
export interface Outcome<T> {
  items: T[];
  error?: unknown;
}

export async function outcome<T>(iterable: AsyncIterable<T>): Promise<Outcome<T>> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
    return { items };
  } catch (error) {
    return { items, error };
  }
}

/**
 * Run settings: modest counts, so the whole folder stays well under 20 s on a loaded 2-core
 * machine (`PROPERTY_RUNS=5000 npx vitest run test/properties` searches deeper), and a per-run
 * timeout, so a hang fails the property instead of the suite. The seed is fixed (SEEDED), so
 * CI runs the same cases every time; `PROPERTY_SEED=random` (or a number) explores others, and
 * a counterexample found that way becomes a named regression test.
 */
export const RUNS = {
  numRuns: Number(process.env.PROPERTY_RUNS ?? 150),
  timeout: 2000,
  ...SEEDED,
} as const;
