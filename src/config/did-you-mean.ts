/** A JSON Schema node, as configJsonSchema() builds them. */
type SchemaNode = {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
};

/** The schema node and every member of its anyOf/oneOf/allOf, recursively. */
function expand(node: SchemaNode, out: SchemaNode[] = []): SchemaNode[] {
  out.push(node);
  for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    expand(member, out);
  return out;
}

/**
 * The property names a JSON Schema allows for the object at `path` (keys of records are
 * matched by `additionalProperties`, array indexes by `items`), gathered across every union
 * member, so that a provider object gets the keys of every provider kind.
 */
export function knownKeysAt(schema: Record<string, unknown>, path: readonly (string | number)[]): string[] {
  let nodes = expand(schema as SchemaNode);
  for (const segment of path) {
    const next: SchemaNode[] = [];
    for (const node of nodes) {
      const byName = typeof segment === 'string' ? node.properties?.[segment] : undefined;
      if (byName) next.push(byName);
      else if (typeof segment === 'number' && node.items) next.push(node.items);
      else if (typeof node.additionalProperties === 'object') next.push(node.additionalProperties);
    }
    nodes = next.flatMap((n) => expand(n));
  }
  return [...new Set(nodes.flatMap((n) => Object.keys(n.properties ?? {})))];
}

/** Lower case without `_`, `-` or spaces: `baseURL`, `base_url` and `baseUrl` all become `baseurl`. */
function fold(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

/** Edit distance between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** True when `b` is `a` with two neighbouring letters swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/**
 * The known key an unknown `key` most likely meant, or undefined: one that differs only in
 * case, `_`/`-` (`baseURL`, `base_url` -> `baseUrl`; `api_key` -> `apiKey`), else the single
 * closest one within 2 edits (and at most a third of the key's length, less one letter), compared
 * case-insensitively (`apiKye` -> `apiKey`, a swap; `voice` -> `voices`); a key too short for
 * an edit still gets one swap of two neighbours (`evn` -> `env`). `minEdits` raises that limit
 * for short keys where a near miss is still clear (default 0): the voice turn's stages, `sst`
 * -> `stt` with 1.
 */
export function didYouMean(key: string, allowed: readonly string[], minEdits = 0): string | undefined {
  // The key itself is among them when another member of a union allows it (`tts` on a kind
  // that has no tts): no suggestion then.
  const known = allowed.filter((k) => k !== key);
  if (known.length < allowed.length) return undefined;
  const folded = fold(key);
  const same = known.filter((k) => fold(k) === folded);
  if (same.length === 1) return same[0];
  const limit = Math.max(minEdits, Math.min(2, Math.floor((folded.length - 1) / 3)));
  let best: string | undefined;
  let bestDistance = Math.max(limit, 1) + 1;
  let tie = false;
  for (const k of known) {
    const other = fold(k);
    const d = distance(folded, other);
    // Short keys get no edit, except two neighbours swapped (`evn` -> `env`).
    if (d > limit && !(d === 1 && isSwap(folded, other))) continue;
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  return best !== undefined && !tie ? best : undefined;
}

/**
 * The first own key of `value` that is not one of `known`, with the known key it most likely
 * meant ({@link didYouMean}); undefined when every key is known. `unsetWhenUndefined`: a key
 * whose value is `undefined` counts as absent. The one check behind every strict object of the
 * API that is not parsed by the config schema (createRouter's options, requests, the testing
 * kit's options).
 */
export function firstUnknownKey(
  value: object,
  known: readonly string[],
  unsetWhenUndefined = false,
  minEdits = 0,
): { key: string; near: string | undefined } | undefined {
  for (const key in value) {
    if (!Object.hasOwn(value, key) || known.includes(key)) continue;
    if (unsetWhenUndefined && (value as Record<string, unknown>)[key] === undefined) continue;
    return { key, near: didYouMean(key, known, minEdits) };
  }
  return undefined;
}
