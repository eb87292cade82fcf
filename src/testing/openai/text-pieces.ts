/**
 * `text` cut before every word but the first, so that each piece is a word with the
 * whitespace after it: `'Hello there. '` -> `['Hello ', 'there. ']`. The pieces join back
 * to `text` exactly; an empty or all-space text gives `[]` or one piece.
 */
export function wordPieces(text: string): string[] {
  const starts: number[] = [];
  for (const match of text.matchAll(/\S+/g)) starts.push(match.index);
  if (starts.length === 0) return text === '' ? [] : [text];
  starts[0] = 0;
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}

/**
 * `text` cut after each sentence end (`.`, `!`, `?` and the spaces after it):
 * `'Hi. How are you?'` -> `['Hi. ', 'How are you?']`. The pieces join back to `text` exactly.
 */
export function sentencePieces(text: string): string[] {
  return text.match(/[^.!?]*(?:[.!?]+\s*|$)/g)?.filter((piece) => piece !== '') ?? [];
}

/** `text` cut into pieces of at most `size` UTF-16 units (the last may be shorter). */
export function fixedPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
