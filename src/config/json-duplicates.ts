/** A key written twice in one JSON object. */
export interface JsonDuplicateKey {
  /** Path of the duplicate key: the enclosing keys and array indices, then the key itself. */
  path: (string | number)[];
  /** 0-based character offset of the repeated key's opening quote. */
  offset: number;
  /** 0-based character offset of the key's first occurrence in the same object. */
  firstOffset: number;
}

interface ObjectFrame {
  kind: 'object';
  /** Each key seen in this object, with the offset of its first occurrence. */
  keys: Map<string, number>;
  /** The key whose value is being read (the path step for nested values). */
  key: string | undefined;
}

interface ArrayFrame {
  kind: 'array';
  /** Index of the element being read. */
  index: number;
}

/** End offset (exclusive) of the JSON string starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === '"') return i + 1;
    else i++;
  }
  return text.length;
}

/**
 * Every key written more than once in one object of `text`, in the order they appear
 * (`JSON.parse` silently keeps the last value of a repeated key). Keys are compared after
 * decoding their escapes, so `"a\u0062"` repeats `"ab"`. Objects in arrays get the array
 * index in the path. Meant for text that `JSON.parse` has already accepted: on invalid JSON
 * the result is unspecified (but the scan still ends, in linear time).
 */
export function findJsonDuplicateKeys(text: string): JsonDuplicateKey[] {
  const found: JsonDuplicateKey[] = [];
  const stack: Array<ObjectFrame | ArrayFrame> = [];
  /** True when the next string in the innermost object is a key (after `{` or `,`). */
  let expectKey = false;

  const pathOf = (): (string | number)[] =>
    stack.map((frame) => (frame.kind === 'array' ? frame.index : (frame.key ?? '')));

  for (let i = 0; i < text.length; ) {
    const char = text[i];
    const top = stack[stack.length - 1];
    if (char === '"') {
      const end = stringEnd(text, i);
      if (expectKey && top?.kind === 'object') {
        const key = JSON.parse(text.slice(i, end)) as string;
        const first = top.keys.get(key);
        top.key = key;
        if (first === undefined) top.keys.set(key, i);
        else found.push({ path: pathOf(), offset: i, firstOffset: first });
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (char === '{') {
      stack.push({ kind: 'object', keys: new Map(), key: undefined });
      expectKey = true;
    } else if (char === '[') {
      stack.push({ kind: 'array', index: 0 });
    } else if (char === '}' || char === ']') {
      stack.pop();
      expectKey = false;
    } else if (char === ',') {
      if (top?.kind === 'array') top.index++;
      else expectKey = true;
    }
    i++;
  }
  return found;
}
