/**
 * Property tests of request validation (issue 12): any tts/stt/chat request gives a typed
 * RequestError naming the field at fault, or passes; never another throw. A valid request with
 * one field replaced or removed is either still valid or fails on exactly that field, and the
 * router rejects it with that RequestError before any provider is contacted.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter, RequestError } from '../../src/index.js';
import {
  chatRequestProblem,
  sttRequestProblem,
  ttsRequestProblem,
} from '../../src/routing/validate-request.js';
import { RUNS } from './chunks.js';

type Loose = Record<string, unknown>;

const anyValue = fc.anything({
  maxDepth: 2,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withBoxedValues: true,
});
/** Values near the edges of what each field accepts. */
const edgeValue = fc.constantFrom<unknown>(
  undefined,
  null,
  '',
  'en',
  'not a tag!',
  0,
  -1,
  0.5,
  1,
  2,
  2.5,
  7,
  8000,
  192_001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  {},
  { encoding: 'pcm_s16le', sampleRate: 16000 },
  { encoding: 'mp3', sampleRate: 16000 },
  { encoding: 'pcm_s16le', sampleRate: 16000, channels: 2 },
  [{ role: 'user', content: 'hi' }],
  new AbortController().signal,
);
const valueArb = fc.oneof(anyValue, edgeValue);

async function* noAudio(): AsyncGenerator<Uint8Array> {}
const formatArb = fc.record({
  encoding: fc.constantFrom('pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'),
  sampleRate: fc.integer({ min: 8000, max: 192_000 }),
});
const callOptions = {
  route: fc.string({ minLength: 1, maxLength: 8 }),
  deadlineMs: fc.double({ min: 1, max: 60_000, noNaN: true }),
  signal: fc.constant(new AbortController().signal),
};
const ttsArb = fc.record(
  {
    text: fc.string({ maxLength: 20 }),
    voice: fc.string({ minLength: 1, maxLength: 8 }),
    format: formatArb,
    language: fc.constantFrom('en', 'de-DE', 'pt-BR'),
    speed: fc.double({ min: 0.25, max: 4, noNaN: true }),
    ...callOptions,
  },
  { requiredKeys: ['text', 'voice'] },
);
const sttArb = fc
  .record(
    { format: formatArb, language: fc.constantFrom('en', 'fr'), interim: fc.boolean(), ...callOptions },
    { requiredKeys: ['format'] },
  )
  .map((r) => ({ ...r, audio: noAudio() }));
/** The first message of every generated history: the tool call that tool messages answer. */
const CALLING = {
  role: 'assistant',
  content: '',
  toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }],
};
const chatArb = fc.record(
  {
    messages: fc
      .array(
        fc
          .record({
            role: fc.constantFrom('system', 'user', 'assistant', 'tool'),
            content: fc.string({ maxLength: 10 }),
          })
          // A field of tool messages only: on another message it is a RequestError.
          .map((m) => (m.role === 'tool' ? { ...m, toolCallId: 'call_1' } : m)),
        { maxLength: 3 },
      )
      .map((rest) => [CALLING, ...rest]),
    model: fc.string({ minLength: 1, maxLength: 8 }),
    maxTokens: fc.integer({ min: 1, max: 4096 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    tools: fc.constant([{ name: 'lookup', description: 'finds it', parameters: { type: 'object' } }]),
    ...callOptions,
  },
  { requiredKeys: ['messages', 'model'] },
);

const FIELDS = {
  tts: [
    'text',
    'voice',
    'format',
    'format.encoding',
    'format.sampleRate',
    'format.channels',
    'language',
    'speed',
    'signal',
    'route',
    'deadlineMs',
  ],
  stt: [
    'audio',
    'format',
    'format.encoding',
    'format.sampleRate',
    'format.channels',
    'language',
    'interim',
    'signal',
    'route',
    'deadlineMs',
  ],
  chat: [
    'messages',
    'messages.0',
    'messages.0.role',
    'messages.0.content',
    'messages.0.toolCallId',
    'messages.0.toolCalls',
    'messages.0.toolCalls.0',
    'messages.0.toolCalls.0.id',
    'messages.0.toolCalls.0.name',
    'messages.0.toolCalls.0.arguments',
    'messages.1.role',
    'messages.1.toolCallId',
    'model',
    'maxTokens',
    'temperature',
    'tools',
    'tools.0',
    'tools.0.name',
    'tools.0.description',
    'tools.0.parameters',
    'signal',
    'route',
    'deadlineMs',
  ],
} as const;
type Kind = keyof typeof FIELDS;
const problemOf: Record<Kind, (request: never) => RequestError | undefined> = {
  tts: ttsRequestProblem,
  stt: sttRequestProblem,
  chat: chatRequestProblem,
};
const validArb: Record<Kind, fc.Arbitrary<Loose>> = { tts: ttsArb, stt: sttArb, chat: chatArb };

/**
 * `request` with the field at dotted `path` set to `value` (or removed), on copies of its
 * objects; undefined when an object on the way is absent (`format.channels` of a tts() request
 * without a format), which would change more than one field.
 */
function mutate(request: Loose, path: string, value: unknown, remove: boolean): Loose | undefined {
  const keys = path.split('.');
  const root: Loose = { ...request };
  let at: Loose = root;
  for (const key of keys.slice(0, -1)) {
    const inner = at[key];
    if (typeof inner !== 'object' || inner === null) return undefined;
    const copy: Loose = Array.isArray(inner) ? ([...inner] as unknown as Loose) : { ...(inner as Loose) };
    at[key] = copy;
    at = copy;
  }
  const last = keys.at(-1)!;
  if (remove) delete at[last];
  else at[last] = value;
  return root;
}

/** The problem, or the error an untyped throw would be (which fails the property). */
function problem(kind: Kind, request: unknown): RequestError | undefined {
  return problemOf[kind](request as never);
}

const mutatedArb = fc.constantFrom<Kind>('tts', 'stt', 'chat').chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    request: validArb[kind],
    path: fc.constantFrom(...FIELDS[kind]),
    value: valueArb,
    remove: fc.boolean(),
  }),
);

describe('request validation (property)', () => {
  it('valid requests pass', () => {
    fc.assert(
      fc.property(fc.constantFrom<Kind>('tts', 'stt', 'chat'), fc.nat(), (kind, seed) => {
        const [request] = fc.sample(validArb[kind], { seed, numRuns: 1 });
        expect(problem(kind, request)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('any value as the request: passes or a RequestError naming a field, never another throw', () => {
    fc.assert(
      fc.property(fc.constantFrom<Kind>('tts', 'stt', 'chat'), valueArb, (kind, request) => {
        const bad = problem(kind, request);
        if (bad === undefined) return;
        expect(RequestError.isInstance(bad)).toBe(true);
        expect(bad.retryable).toBe(false);
        expect(bad.message.startsWith(`Invalid request field '${bad.field}': `)).toBe(true);
      }),
      RUNS,
    );
  });

  it('one field of a valid request replaced or removed: still valid, or a RequestError naming exactly that field', () => {
    fc.assert(
      fc.property(mutatedArb, ({ kind, request, path, value, remove }) => {
        const mutated = mutate(request, path, value, remove);
        fc.pre(mutated !== undefined);
        const bad = problem(kind, mutated);
        if (bad === undefined) return;
        expect(RequestError.isInstance(bad)).toBe(true);
        // The field named is the one changed, or a field inside it (format -> format.sampleRate),
        // or, when the change took away the tool call of messages.0, the toolCallId of a later
        // tool message that answered it (a reference names the field that refers), or, when a
        // message's role changed, a field of that message that its new role lacks or does not
        // have (a tool message's toolCallId, an assistant's toolCalls).
        const answered =
          /^messages\.0(?:\.role|\.toolCalls(?:\.0(?:\.id)?)?)?$/.test(path) &&
          /^messages\.[1-9]\d*\.toolCallId$/.test(bad.field);
        const role = /^(messages\.\d+)\.role$/.exec(path)?.[1];
        const roleField =
          role !== undefined && new RegExp(`^${role}\\.(?:toolCallId|toolCalls)$`).test(bad.field);
        expect(bad.field === path || bad.field.startsWith(`${path}.`) || answered || roleField).toBe(true);
      }),
      RUNS,
    );
  });

  describe('through the router', () => {
    let fetched = 0;
    const router = createRouter(
      {
        providers: {
          local: {
            kind: 'openai-compatible',
            baseUrl: 'http://127.0.0.1:9/v1',
            chat: { models: { fast: 'm' } },
            tts: { model: 't', voices: { agent: 'v' }, responseFormat: 'pcm' },
            stt: { model: 's' },
          },
        },
        routes: {
          tts: { providers: ['local'] },
          stt: { providers: ['local'] },
          chat: { providers: ['local'] },
        },
      },
      {
        fetch: async () => {
          fetched++;
          throw new Error('no provider may be contacted');
        },
      },
    );
    afterAll(() => router.close());

    it('an invalid request: the first next() rejects with the same RequestError, no provider contacted', async () => {
      await fc.assert(
        fc.asyncProperty(mutatedArb, async ({ kind, request, path, value, remove }) => {
          const mutated = mutate(request, path, value, remove);
          fc.pre(mutated !== undefined);
          const bad = problem(kind, mutated);
          fc.pre(bad !== undefined);
          const stream = router[kind](mutated as never) as AsyncIterable<unknown>;
          const error = await stream[Symbol.asyncIterator]()
            .next()
            .catch((e: unknown) => e);
          expect(RequestError.isInstance(error)).toBe(true);
          expect((error as RequestError).field).toBe(bad!.field);
          expect(fetched).toBe(0);
        }),
        { ...RUNS, numRuns: Math.ceil(RUNS.numRuns / 3) },
      );
    });
  });
});
