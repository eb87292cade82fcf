import { readFileSync } from 'node:fs';

/** Index of the first element where `a` and `b` differ (or the shorter length), -1 when equal. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

export { concatBytes } from '../helpers/index.js';

/** `data` as an async stream of chunks of the given sizes (the rest as one last chunk). */
export async function* streamOf(data: Uint8Array, sizes: readonly number[] = []): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const size of sizes) {
    if (at >= data.byteLength) return;
    yield data.subarray(at, Math.min(at + size, data.byteLength));
    at += size;
  }
  if (at < data.byteLength) yield data.subarray(at);
}

/** Collects an async iterable. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** A real speech fixture from test/fixtures (see its README for provenance). */
export function fixture(name: 'jfk-16k-s16le.wav' | 'jfk-24k-s16le.wav' | 'jfk-8k-mulaw.wav'): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

/** A sine of `hz` at `rate` Hz, `n` samples, peak `amplitude`. */
export function sine(hz: number, rate: number, n: number, amplitude: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
}
