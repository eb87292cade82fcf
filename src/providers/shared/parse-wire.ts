import type { z } from 'zod';
import { ProtocolError } from '../../errors/index.js';

/**
 * `value` checked against a wire schema. Throws ProtocolError (retryable, `partialOutput` =
 * `hadOutput`) naming `what` and the first issue's path when it does not fit; the value itself
 * is not put in the message.
 */
export function parseWire<T extends z.ZodType>(
  schema: T,
  value: unknown,
  provider: string,
  what: string,
  hadOutput: boolean,
): z.output<T> {
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
