import type { z } from 'zod';
import { ProtocolError } from '../../errors/index.js';
import type { WireShape } from './wire-shape.js';

/**
 * `value` checked against a wire schema, or a {@link WireShape} (whose plain check vouches for a
 * value that fits without loading zod; zod then only runs for one that does not). Throws
 * ProtocolError (retryable, `partialOutput` = `hadOutput`) naming `what` and the first issue's
 * path when it does not fit; the value itself is not put in the message.
 */
export function parseWire<T>(
  schema: WireShape<T>,
  value: unknown,
  provider: string,
  what: string,
  hadOutput: boolean,
): T;
export function parseWire<T extends z.ZodType>(
  schema: T,
  value: unknown,
  provider: string,
  what: string,
  hadOutput: boolean,
): z.output<T>;
export function parseWire(
  schemaOrShape: z.ZodType | WireShape<unknown>,
  value: unknown,
  provider: string,
  what: string,
  hadOutput: boolean,
): unknown {
  let schema: z.ZodType;
  if ('fits' in schemaOrShape) {
    if (schemaOrShape.fits(value)) return value;
    schema = schemaOrShape.schema();
  } else {
    schema = schemaOrShape;
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new ProtocolError(`Unexpected ${what}${where}: ${issue?.message ?? 'invalid'}`, {
    provider,
    partialOutput: hadOutput,
    cause: result.error,
  });
}
