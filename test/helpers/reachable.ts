/**
 * Every string reachable from `root` through own properties (enumerable or not, symbols too),
 * keys included, with typed arrays read as latin1 text: for asserting that no secret can be
 * reached from an error by anything that walks it (`util.inspect` with `showHidden`, error
 * serialisers, loggers).
 */
export function reachableStrings(root: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 40) return;
    if (typeof value === 'string') {
      out.push(value);
      return;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value))
      return;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      out.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1'));
      return;
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === 'string') out.push(key);
      let field: unknown;
      try {
        field = (value as Record<string | symbol, unknown>)[key];
      } catch {
        continue;
      }
      walk(field, depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

/**
 * The strings reachable from `root` (see {@link reachableStrings}) that hold one of `needles`,
 * case-insensitively, or that are a header name `authorization`: `[]` when none of them can be
 * reached.
 */
export function reachableSecrets(root: unknown, needles: readonly string[]): string[] {
  const lower = needles.map((n) => n.toLowerCase());
  return reachableStrings(root).filter(
    (s) => /^authorization$/i.test(s) || lower.some((n) => s.toLowerCase().includes(n)),
  );
}
