import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';

/**
 * A wire message's shape, written once and checked two ways: `fits(value)`, a plain-JavaScript
 * check that never loads zod, vouches for a value that fits (the value is then used as it is);
 * `schema()` is the same shape as a zod schema, built (and zod loaded) on its first call, which
 * `parseWire` runs only for a value that does not fit, to name the field that is wrong in its
 * ProtocolError. So a provider's stream of well-formed frames never loads zod on a call's clock
 * (about 70 to 100 ms, docs/decisions.md "No zod on the first call"). `fits` is never more
 * permissive than the schema: test/providers/shared/wire-shape.test.ts checks both agree.
 *
 * Only what the hot frames of the providers whose config skips zod need is here: strings,
 * literals, non-negative integers, `unknown`, plain records, unions of two, nullish values,
 * arrays and loose objects (unknown fields kept and ignored, like zod's `looseObject`).
 */
export interface WireShape<T> {
  /** True when `value` fits the shape (and so the schema): then it can be used as a `T`. */
  readonly fits: (value: unknown) => value is T;
  /** The shape as a zod schema, built on the first call (loads zod). */
  readonly schema: () => z.ZodType<T>;
}

/** The type a shape vouches for. */
export type ShapeOf<S> = S extends WireShape<infer T> ? T : never;

type Build<T> = (zodNamespace: typeof z) => z.ZodType<T>;

function shape<T>(fits: (value: unknown) => boolean, build: Build<T>): WireShape<T> {
  return { fits: fits as (value: unknown) => value is T, schema: lazySchema(build) };
}

/** zod of a shape's schema inside another shape's builder (same object as `schema()`). */
const inner = <T>(s: WireShape<T>): z.ZodType<T> => s.schema();

/** A string (`z.string()`). */
export const wireString: WireShape<string> = shape(
  (v) => typeof v === 'string',
  (z) => z.string(),
);

/** A non-negative safe integer (`z.number().int().nonnegative()`). */
export const wireCount: WireShape<number> = shape(
  (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0,
  (z) => z.number().int().nonnegative(),
);

/** A plain JSON object: not an array, not null (`z.record(z.string(), z.unknown())`). */
export const wireRecord: WireShape<Record<string, unknown>> = shape(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  (z) => z.record(z.string(), z.unknown()),
);

/** `a` or `b` (`z.union([a, b])`). */
export function wireEither<A, B>(a: WireShape<A>, b: WireShape<B>): WireShape<A | B> {
  return shape(
    (v) => a.fits(v) || b.fits(v),
    (z) => z.union([inner(a), inner(b)]),
  );
}

/** Any value, the field may be absent (`z.unknown().optional()`). */
export const wireUnknown: WireShape<unknown> = shape(
  () => true,
  (z) => z.unknown().optional(),
);

/** Exactly `value` (`z.literal(value)`). */
export function wireLiteral<L extends string>(value: L): WireShape<L> {
  return shape(
    (v) => v === value,
    (z) => z.literal(value),
  );
}

/** `of`, `null` or absent (`.nullish()`). */
export function wireNullish<T>(of: WireShape<T>): WireShape<T | null | undefined> {
  return shape(
    (v) => v === null || v === undefined || of.fits(v),
    () => inner(of).nullish(),
  );
}

/** An array of `of` (`z.array(of)`). */
export function wireArray<T>(of: WireShape<T>): WireShape<T[]> {
  return shape(
    (v) => Array.isArray(v) && v.every((item) => of.fits(item)),
    (z) => z.array(inner(of)),
  );
}

type Fields = Record<string, WireShape<unknown>>;
type Nullable<F extends Fields> = {
  [K in keyof F]: undefined extends ShapeOf<F[K]> ? K : never;
}[keyof F];
/** The object a loose shape vouches for: its fields (optional when they may be absent), and others. */
export type LooseOf<F extends Fields> = {
  [K in Exclude<keyof F, Nullable<F>>]: ShapeOf<F[K]>;
} & { [K in Nullable<F>]?: ShapeOf<F[K]> } & { [field: string]: unknown };

/**
 * An object (not an array, not null) whose `fields` fit their shapes, an absent field read as
 * `undefined`; other fields are kept and ignored (`z.looseObject(fields)`).
 */
export function wireObject<F extends Fields>(fields: F): WireShape<LooseOf<F>> {
  const entries = Object.entries(fields);
  return shape(
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      for (const [name, field] of entries) {
        if (!field.fits((v as Record<string, unknown>)[name])) return false;
      }
      return true;
    },
    (z) =>
      z.looseObject(
        Object.fromEntries(entries.map(([name, field]) => [name, inner(field)])),
      ) as unknown as z.ZodType<LooseOf<F>>,
  );
}
