import type { AttemptContext } from '../../../src/providers/types.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';

export const encoder = new TextEncoder();

/** An async iterable over `parts` (strings as UTF-8). */
export async function* partsOf(parts: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

/** Drains an async iterable into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** Drains an async iterable; returns what it yielded before it threw, and the error. */
export async function collectUntilError<T>(
  iterable: AsyncIterable<T>,
): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
  } catch (error) {
    return { items, error };
  }
  throw new Error(`expected the stream to fail; it ended normally after ${items.length} items`);
}

/** A transport that must not be used (SageMaker adapters talk through the AWS SDK). */
export const unusedTransport: HttpTransport = {
  request: () => Promise.reject(new Error('the SageMaker adapter must not use the HTTP transport')),
  close: async () => {},
};

/** An AttemptContext for the SageMaker adapter. */
export function attemptOf(
  signal: AbortSignal = new AbortController().signal,
  deadlines: Deadlines = { connectMs: 2000, headersMs: 5000, idleMs: 5000 },
): AttemptContext {
  return { signal, deadlines, transport: unusedTransport };
}

/** Fake static credentials for the SDK. */
export const credentials = {
  accessKeyId: 'AKIDVOXROUTETEST',
  secretAccessKey: 'voxroute-test-secret-key-9f8e7d6c5b4a',
  sessionToken: 'voxroute-session-token-0123456789',
};
