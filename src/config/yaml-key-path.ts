import type { Document } from 'yaml';

/** Where a YAML mapping key is: its path and the offset of the same key's first occurrence. */
export interface YamlKeyPlace {
  /** The enclosing keys and sequence indices, then the key itself. */
  path: (string | number)[];
  /** 0-based character offset of the first key of the same mapping with the same value. */
  firstOffset: number;
}

interface NodeLike {
  range?: [number, number, number] | null;
  value?: unknown;
  items?: unknown[];
  key?: unknown;
}

const keyValue = (key: unknown): unknown =>
  typeof key === 'object' && key !== null && 'value' in key ? (key as NodeLike).value : key;

/**
 * The path of the mapping key that starts at `offset` in the parsed YAML `doc` (the position
 * the `yaml` package gives a `DUPLICATE_KEY` error), or undefined when no scalar key starts
 * there (a complex key, or an offset that is no key's). Sequence items give their index, merge
 * keys (`<<`) their own name. `yaml` is the module the document came from (loaded lazily by
 * the caller, so this file does not load it).
 */
export function yamlKeyPlace(
  yaml: typeof import('yaml'),
  doc: Document,
  offset: number,
): YamlKeyPlace | undefined {
  let found: YamlKeyPlace | undefined;
  yaml.visit(doc, {
    Pair(_, pair, ancestors) {
      const key = pair.key as NodeLike | null;
      if (!yaml.isScalar(key) || key.range?.[0] !== offset) return undefined;
      const path: (string | number)[] = [];
      const chain = [...ancestors, pair];
      for (let i = 0; i < chain.length; i++) {
        const node = chain[i];
        if (yaml.isPair(node)) path.push(String(keyValue(node.key)));
        else if (yaml.isSeq(node)) path.push(node.items.indexOf(chain[i + 1] as never));
      }
      const parent = ancestors[ancestors.length - 1];
      const first = yaml.isMap(parent)
        ? parent.items.find((item) => keyValue(item.key) === key.value)
        : undefined;
      const firstKey = first?.key as NodeLike | undefined;
      found = { path, firstOffset: firstKey?.range?.[0] ?? offset };
      return yaml.visit.BREAK;
    },
  });
  return found;
}
