/**
 * Reads `source` until a chunk holds a byte that is not white space (SP, TAB, CR, LF; a UTF-8
 * byte order mark EF BB BF at the body's start is skipped: a JSON document may start with one,
 * e.g. a .NET or IIS gateway's, and the JSON and event-stream decoders drop it). Resolves with
 * that byte (`first`, undefined when the body ended before one) and a body that replays the
 * chunks read, then the rest of `source`; returning that body early returns `source`. A failure
 * of `source` while reading rejects.
 */
export async function peekFirstByte(
  source: AsyncIterable<Uint8Array>,
): Promise<{ first: number | undefined; body: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let first: number | undefined;
  let ended = false;
  while (first === undefined) {
    const step = await iterator.next();
    if (step.done) {
      ended = true;
      break;
    }
    head.push(step.value);
    first = firstNonBlank(step.value, head.length === 1);
  }
  return { first, body: replay(head, ended ? undefined : iterator) };
}

/** The first byte of `bytes` that is not white space, after a byte order mark when `atStart`. */
function firstNonBlank(bytes: Uint8Array, atStart: boolean): number | undefined {
  const from = atStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return b;
  }
  return undefined;
}

/** `head`, then the rest of `rest` (none when the body already ended); closing it closes `rest`. */
async function* replay(
  head: readonly Uint8Array[],
  rest: AsyncIterator<Uint8Array> | undefined,
): AsyncGenerator<Uint8Array, void, undefined> {
  let finished = rest === undefined;
  try {
    yield* head;
    while (!finished) {
      const step = await (rest as AsyncIterator<Uint8Array>).next();
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (!finished) await rest?.return?.();
  }
}
