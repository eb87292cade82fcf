import type { z } from 'zod';
import { didYouMean, firstUnknownKey } from '../config/did-you-mean.js';
import { toConfigIssues } from '../config/issues.js';
import { valueShape } from '../internal/value-shape.js';
import { lazySchema } from '../internal/zod.js';
import { checkingFactoryOptions, fixedValues, mockOptionError } from './reply-checks.js';

/**
 * The option check of every mock factory of the kit: the options object, each script (one
 * for every call, an array one per call, or one per endpoint) and the other typed fields, with
 * unknown keys rejected (a misspelt `failTime` would otherwise script nothing). A value given
 * as a function (per call) is checked only as a function: its result is known per call.
 * Replies (`chat`, `reply`) are checked by the factories themselves (reply-checks.ts).
 */

type Schema = z.ZodType;
type Z = typeof z;

const whole = (z: Z, min: number) => z.number().int('expected a whole number').min(min, `must be >= ${min}`);
const ms = (z: Z) => z.number().min(0, 'must be >= 0 ms');
const fn = (z: Z) => z.custom((value) => typeof value === 'function', 'expected a function');

/** MockScript's fields, plus a kind's own (WebSocket closes, SageMaker parts). */
function scriptShape(z: Z) {
  return {
    headersDelayMs: ms(z).optional(),
    firstChunkDelayMs: ms(z).optional(),
    chunkGapMs: ms(z).optional(),
    chunkBytes: whole(z, 1).optional(),
    failTimes: whole(z, 0).optional(),
    failStatus: whole(z, 100).max(599, 'must be <= 599').optional(),
    failBody: z.unknown().optional(),
    retryAfter: z.string().optional(),
    resetAfterChunks: whole(z, 0).optional(),
    stallAfterChunks: whole(z, 0).optional(),
    malformedAfterChunks: whole(z, 0).optional(),
    endWithoutDone: z.boolean().optional(),
    errorEventAfterChunks: whole(z, 0).optional(),
    errorEvent: z
      .strictObject({
        message: z.string().optional(),
        type: z.string().optional(),
        code: z.union([z.string(), z.number()]).optional(),
      })
      .optional(),
  };
}

const socketClose = (z: Z) => ({
  closeAfterChunks: whole(z, 0).optional(),
  closeCode: whole(z, 1000).max(4999, 'must be <= 4999').optional(),
  closeReason: z.string().optional(),
});

const scripts = lazySchema((z) => ({
  base: z.strictObject(scriptShape(z)),
  socket: z.strictObject({ ...scriptShape(z), ...socketClose(z) }),
  cartesia: z.strictObject({ ...scriptShape(z), ...socketClose(z), lateChunks: whole(z, 0).optional() }),
  sagemaker: z.strictObject({
    ...scriptShape(z),
    errorType: z.string().optional(),
    partBytes: whole(z, 1).optional(),
  }),
}));

const speech = (z: Z, extra = {}) =>
  z.strictObject({ msPerCharacter: ms(z).optional(), seed: z.number().optional(), ...extra }).optional();

/** The options object of each factory, every script and per-call field left to the walker below. */
const optionSchemas = lazySchema((z) => {
  const common = { apiKey: z.string().optional(), delay: fn(z).optional(), now: fn(z).optional() };
  return {
    openai: z.strictObject({
      ...common,
      dialect: z.enum(['openai', 'vllm', 'kokoro', 'speaches']).optional(),
      script: z.unknown().optional(),
      chat: z.unknown().optional(),
      transcript: z.unknown().optional(),
      speech: speech(z, { sampleRate: whole(z, 8000).optional() }),
      models: z.array(z.string()).optional(),
    }),
    anthropic: z.strictObject({
      ...common,
      authHeader: z.enum(['either', 'x-api-key', 'bearer']).optional(),
      script: z.unknown().optional(),
      reply: z.unknown().optional(),
    }),
    cartesia: z.strictObject({
      ...common,
      script: z.unknown().optional(),
      speech: speech(z),
      transcript: z.unknown().optional(),
    }),
    deepgram: z.strictObject({
      ...common,
      script: z.unknown().optional(),
      transcript: z.unknown().optional(),
      wordMs: ms(z).optional(),
      inactivityTimeoutMs: ms(z).optional(),
      speech: speech(z),
    }),
    elevenlabs: z.strictObject({
      ...common,
      script: z.unknown().optional(),
      speech: speech(z),
      alignmentDurationsKey: z.enum(['charDurationsMs', 'charsDurationsMs']).optional(),
      inactivityTimeoutMs: ms(z).optional(),
    }),
    sagemaker: z.strictObject({
      endpoints: z.record(z.string(), z.looseObject({})).optional(),
      script: z.unknown().optional(),
      coldStart: z.strictObject({ afterIdleMs: ms(z), delayMs: ms(z) }).optional(),
      requireSignature: z.boolean().optional(),
      verifySignatures: z.strictObject({ secretAccessKey: z.string() }).optional(),
      delay: fn(z).optional(),
      now: fn(z).optional(),
      port: whole(z, 0).max(65535, 'must be <= 65535').optional(),
      host: z.string().optional(),
    }),
  };
});

/** A mock factory whose options {@link checkMockOptions} knows. */
export type CheckedMockKind = keyof ReturnType<typeof optionSchemas>;

/** Where each kind's scripts go: one script kind for all calls, or one per endpoint. */
function scriptPlan(kind: CheckedMockKind): {
  single?: Schema;
  endpoints: Record<string, Schema>;
  perEndpointOnly?: boolean;
} {
  const s = scripts();
  switch (kind) {
    case 'openai':
      return {
        single: s.base,
        endpoints: { chat: s.base, speech: s.base, transcription: s.base, models: s.base },
      };
    case 'anthropic':
      return { single: s.base, endpoints: {} };
    case 'cartesia': {
      const c = s.cartesia;
      return { single: c, endpoints: { bytes: c, sse: c, stt: c, 'tts-websocket': c, 'stt-websocket': c } };
    }
    case 'deepgram':
      return { endpoints: { speak: s.base, listen: s.socket }, perEndpointOnly: true };
    case 'elevenlabs':
      return { single: s.socket, endpoints: { stream: s.base, streamInput: s.socket } };
    case 'sagemaker':
      return { single: s.sagemaker, endpoints: {} };
  }
}

/** `a.b` from `a` and `b`, either of which may be empty. */
const join = (path: string, rest: string) => (path && rest ? `${path}.${rest}` : path || rest);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws the TypeError of the first issue of `schema` on `value`, its path below `path`. */
function check(schema: Schema, value: unknown, path: string): void {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return;
  const keys = (at: readonly (string | number)[]) => knownKeys(schema, at);
  const [first] = toConfigIssues(parsed.error.issues, [], keys);
  if (!first) return;
  throw mockOptionError(join(path, first.path.join('.')), first.message);
}

/** The keys a strict object schema allows at `path` (for a did-you-mean). */
function knownKeys(schema: Schema, path: readonly (string | number)[]): string[] {
  let node: unknown = schema;
  for (const segment of path) {
    node = unwrap(node);
    const shape = (node as { shape?: Record<string, unknown> }).shape;
    node = shape?.[String(segment)];
    if (node === undefined) return [];
  }
  const shape = (unwrap(node) as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

function unwrap(node: unknown): unknown {
  let current = node as { unwrap?: () => unknown; def?: { type?: string } } | undefined;
  while (current?.def?.type === 'optional' && typeof current.unwrap === 'function')
    current = current.unwrap() as typeof current;
  return current;
}

/** A {@link PerCall} value: a function, or each known value checked by `schema`. */
function checkPerCall(spec: unknown, schema: Schema, path: string): void {
  if (spec === undefined || typeof spec === 'function') return;
  for (const [suffix, value] of fixedValues(spec as never)) {
    // An array entry left empty scripts nothing for that call.
    if (suffix !== '' && value === undefined) continue;
    check(schema, value, join(path, suffix.slice(1)));
  }
}

function checkScript(kind: CheckedMockKind, spec: unknown, path: string): void {
  if (spec === undefined) return;
  const plan = scriptPlan(kind);
  const names = Object.keys(plan.endpoints);
  const perEndpoint = isRecord(spec) && (plan.perEndpointOnly || names.some((name) => name in spec));
  if (!perEndpoint) {
    // One script for every endpoint, unless the mock only takes one per endpoint (Deepgram).
    if (plan.single && names.length > 0 && isRecord(spec)) {
      // A key that is no script field and near no field, e.g. `chats`: a misspelt endpoint.
      const unknown = firstUnknownKey(spec, knownKeys(plan.single, []));
      if (unknown && unknown.near === undefined) {
        const endpoint = didYouMean(unknown.key, names);
        throw mockOptionError(
          join(path, unknown.key),
          `unknown key${endpoint ? ` (did you mean the endpoint "${endpoint}"?)` : ''}; a script is one for every endpoint, or one per endpoint: ${names.join(', ')}`,
        );
      }
    }
    if (plan.single) checkPerCall(spec, plan.single, path);
    else throw mockOptionError(path, `expected an object of scripts by endpoint (${names.join(', ')})`);
    return;
  }
  for (const [name, value] of Object.entries(spec as Record<string, unknown>)) {
    const schema = plan.endpoints[name];
    if (!schema) {
      const near = didYouMean(name, names);
      throw mockOptionError(
        join(path, name),
        `unknown endpoint${near ? ` (did you mean "${near}"?)` : ''}; the endpoints are ${names.join(', ')}`,
      );
    }
    checkPerCall(value, schema, join(path, name));
  }
}

/**
 * Checks the options of the mock of `kind`; `path` is put before each field's path (none for a
 * factory's own options: `script.failTime`).
 * @throws TypeError `<path>.<field>: <what is wrong>` for the first bad field: an unknown key
 *   (with a did-you-mean when one is close), a value of the wrong type or out of range.
 */
export function checkMockOptions(kind: CheckedMockKind, options: unknown, path = ''): void {
  if (options === undefined) return;
  const schema = optionSchemas()[kind];
  if (!isRecord(options))
    throw mockOptionError(path, `expected an object of mock options, got ${valueShape(options)}`);
  check(schema, options, path);
  checkScript(kind, options.script, join(path, 'script'));
  if (kind !== 'sagemaker' && kind !== 'elevenlabs' && kind !== 'anthropic') {
    checkPerCall(options.transcript, lazyString(), join(path, 'transcript'));
  }
}

/**
 * {@link checkMockOptions} for the options of a mock factory, then `more` (its own checks, e.g.
 * of chat replies), the factory named in each message as `startMockProviders` and
 * `startMockServer` name themselves (see checkingFactoryOptions):
 * `createCartesiaMock: options.script.tts-websocket.closeCode: expected a number, got a string`.
 * @throws TypeError `<factory>: options.<field>: <what is wrong>` (`<factory>: options: ...`
 *   when `options` is not an object).
 */
export function checkFactoryOptions(
  factory: string,
  kind: CheckedMockKind,
  options: unknown,
  more?: () => void,
): void {
  checkingFactoryOptions(factory, () => {
    checkMockOptions(kind, options);
    more?.();
  });
}

const lazyString = lazySchema((z) => z.string('expected a string'));
