import type { ChatEvent } from '../../src/index.js';
import { deferred } from './deferred.js';

/**
 * A gate a test's chat server waits on (`opened`) before it sends the rest of a reply or cuts
 * the connection, opened (`open`) once the caller has the reply's first text: see
 * {@link readOpening}.
 */
export function firstTextGate(): { opened: Promise<void>; open: () => void } {
  const { promise, resolve } = deferred();
  return { opened: promise, open: () => resolve() };
}

/**
 * Reads `stream` to its end or its first error, opening `gate` at each text-delta: what it
 * yielded, and the error (undefined when it ended normally).
 */
export async function readOpening(
  stream: AsyncIterable<ChatEvent>,
  gate: { open: () => void },
): Promise<{ items: ChatEvent[]; error: unknown }> {
  const items: ChatEvent[] = [];
  try {
    for await (const event of stream) {
      items.push(event);
      if (event.type === 'text-delta') gate.open();
    }
  } catch (error) {
    return { items, error };
  }
  return { items, error: undefined };
}
