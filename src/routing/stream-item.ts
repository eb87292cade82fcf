/**
 * What an item of the caller's `audio` or `text` stream is when it is not what the stream takes,
 * for the RequestError's message: its class (`an Int16Array`, `an ArrayBuffer`) or type
 * (`a number`, `null`), with how to pass it where that is clear; never its content (it is the
 * caller's own text or audio).
 */
export function describeStreamItem(value: unknown, field: 'audio' | 'text'): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = classOf(value);
  if (field === 'audio') {
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
      return `${name} (pass its bytes as a Uint8Array, e.g. new Uint8Array(x.buffer, x.byteOffset, x.byteLength))`;
    if ('data' in value) return `${name} that is not an AudioChunk (one has data, a Uint8Array, and format)`;
    return name;
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return `${name} (bytes, not text: decode them to a string)`;
  const event = value as { type?: unknown; text?: unknown };
  if (event.type === 'text-delta' && typeof event.text === 'string')
    return `a chat event { type: 'text-delta' } (yield its text, not the event)`;
  return name;
}

function classOf(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  const shown = typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'object';
  return `${/^[AEIOaeio]/.test(shown) ? 'an' : 'a'} ${shown}`;
}
