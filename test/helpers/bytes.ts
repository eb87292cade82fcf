import { expect } from 'vitest';

/** Asserts two byte arrays are equal (fast for large arrays; reports lengths and the first difference). */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.byteLength).toBe(expected.byteLength);
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (!a.equals(b)) {
    let i = 0;
    while (a[i] === b[i]) i++;
    expect({ firstDifferenceAt: i, actual: a[i] }).toEqual({ firstDifferenceAt: i, expected: b[i] });
  }
}
