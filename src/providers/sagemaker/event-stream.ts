import type { Message, MessageHeaders } from '@smithy/eventstream-codec';
import { lazyImport } from '../../internal/lazy.js';

/** An event-stream message (`headers`, `body`) and its headers, as `@smithy/eventstream-codec` types them. */
export type { Message, MessageHeaders };

/**
 * The `application/vnd.amazon.eventstream` codec: encodes and decodes whole messages (prelude,
 * prelude CRC32, headers, payload, message CRC32; PROTOCOLS.md 5.2). `decode` and `feed` take
 * exactly one whole message each: they do NOT reassemble messages from arbitrary chunks (a
 * partial message or two messages in one call throw); use `EventStreamReader` for a body.
 */
export interface EventStreamMessageCodec {
  encode(message: Message): Uint8Array;
  decode(bytes: ArrayBufferView): Message;
  feed(bytes: ArrayBufferView): void;
  endOfStream(): void;
  getAvailableMessages(): { getMessages(): Message[]; isEndOfStream(): boolean };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Loads `@smithy/eventstream-codec` on the first call (or preload), once per process. */
export const loadEventStreamCodec: () => Promise<typeof import('@smithy/eventstream-codec')> = lazyImport(
  () => import('@smithy/eventstream-codec'),
);

/**
 * A new event-stream codec: `EventStreamCodec` of `@smithy/eventstream-codec` (which re-exports
 * `@smithy/core/event-streams`, PROTOCOLS.md 5.2), computing both CRC32s itself. The module is
 * loaded with a dynamic `import()` on first use, so that neither voxroute nor voxroute/testing
 * loads it at import time. Each codec keeps its own reassembly buffer: use one per stream.
 */
export async function createEventStreamCodec(): Promise<EventStreamMessageCodec> {
  const { EventStreamCodec } = await loadEventStreamCodec();
  return new EventStreamCodec(
    (bytes) => decoder.decode(bytes),
    (text) => encoder.encode(text),
  );
}

/** A string header value (type 7). */
export function stringHeader(value: string): MessageHeaders[string] {
  return { type: 'string', value };
}

/** The string value of header `name` of `message`, if it is a string header. */
export function headerString(message: Message, name: string): string | undefined {
  const header = message.headers[name];
  return header?.type === 'string' ? header.value : undefined;
}
