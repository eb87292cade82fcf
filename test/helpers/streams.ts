/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/**
 * Drains an async iterable to its end or its first error: what it yielded, and the error
 * (undefined when it ended normally).
 */
export async function drain<T>(iterable: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}

/** Like {@link drain}, for a stream that must fail: throws when it ends normally. */
export async function collectUntilError<T>(
  iterable: AsyncIterable<T>,
): Promise<{ items: T[]; error: unknown }> {
  const { items, error } = await drain(iterable);
  if (error === undefined) {
    throw new Error(`expected the stream to fail; it ended normally after ${items.length} items`);
  }
  return { items, error };
}

/** Byte arrays joined into one. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** The `data` of audio chunks (or anything with `data` bytes) joined into one array. */
export function concatData(chunks: readonly { data: Uint8Array }[]): Uint8Array {
  return concatBytes(chunks.map((chunk) => chunk.data));
}

const encoder = new TextEncoder();

/** An async iterable over `parts`, strings as UTF-8, one part per step. */
export async function* chunksOf(parts: ReadonlyArray<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

/** A whole body (any async iterable of bytes) read into one Buffer. */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The error `promise` rejects with; throws (failing the test) when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
