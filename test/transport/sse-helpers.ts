import type { SseEvent } from '../../src/transport/sse.js';

const encoder = new TextEncoder();

/** An async iterable of the given chunks (strings are UTF-8 encoded). */
export async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

/** A body that records whether `return()` was called on it. */
export function trackedBody(parts: string[]): { body: AsyncIterable<Uint8Array>; returned: () => boolean } {
  let returned = false;
  let index = 0;
  const iterator: AsyncIterator<Uint8Array> = {
    next: async () => {
      const part = parts[index++];
      return part === undefined
        ? { value: undefined, done: true }
        : { value: encoder.encode(part), done: false };
    },
    return: async () => {
      returned = true;
      return { value: undefined, done: true };
    },
  };
  return { body: { [Symbol.asyncIterator]: () => iterator }, returned: () => returned };
}

/** Collects every item of an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Data of each event. */
export function datas(events: SseEvent[]): string[] {
  return events.map((e) => e.data);
}
