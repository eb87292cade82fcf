/**
 * The shared provider conformance suite. Every adapter's test file calls
 * `describeConformance(target)`; the suite runs the same checks against the adapter over its
 * mock on a real loopback port (undici transport) and, when the target offers msw handlers,
 * through msw (fetch transport). A provider joins by writing one target (docs/testing.md,
 * "The provider conformance suite").
 *
 * The target shape (see {@link ConformanceTarget}):
 *
 * ```ts
 * describeConformance({
 *   name: 'anthropic chat',            // test titles
 *   capability: 'chat',                // 'chat' | 'tts' | 'stt': which adapter method runs
 *   apiKey: 'sk-conformance',          // the key the adapter sends; never in an error message
 *   startMock: async ({ script, delay }) => ({ baseUrl, requests, close }),     // loopback mock
 *   msw: ({ script, delay }) => ({ baseUrl, handlers, requests }),            // optional
 *   makeAdapter: (baseUrl) => createXAdapter({ baseUrl, apiKey, ... }),
 *   request: () => ({ model: 'm', messages: [...] }),   // a fresh ProviderXRequest per call
 *   expected: { items: [...] },        // chat/stt: every event, in order; tts: { bytes, format }
 *   chunksToFirstOutput: 4,            // body chunks (MockScript sense) up to the first output item
 *   skip: { 'error-event': 'raw PCM has no frames' },   // optional: check -> reason
 * });
 * ```
 *
 * The mock must honour these MockScript fields on the call: `failTimes`/`failStatus`/
 * `retryAfter`, `stallAfterChunks`, `resetAfterChunks`, `endWithoutDone`,
 * `errorEventAfterChunks`, `malformedAfterChunks` (the last three for framed streams), and
 * take its delays from `delay`. Its `requests` record must settle `ended` ('completed',
 * 'aborted', 'reset').
 */

import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  ProtocolError,
  ProviderError,
  TimeoutError,
  VoxrouteError,
} from '../../../src/errors/index.js';
import type {
  AttemptContext,
  ProviderAdapter,
  ProviderAudio,
  ProviderChatRequest,
  ProviderSttRequest,
  ProviderTtsRequest,
} from '../../../src/providers/types.js';
import type { Delay, MockScript, RecordedRequest } from '../../../src/testing/index.js';
import { realDelay } from '../../../src/testing/index.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import type { ChatEvent } from '../../../src/types/chat.js';
import type { TranscriptEvent } from '../../../src/types/transcript.js';
import { concatBytes as concat, fieldsOf } from '../../helpers/index.js';
import { FakeClock } from '../../transport/fake-clock.js';

/** The checks of the suite, by name (use them as keys of {@link ConformanceTarget.skip}). */
export type ConformanceCheck =
  | 'first-chunk'
  | 'complete'
  | 'http-401'
  | 'http-503'
  | 'http-429'
  | 'abort'
  | 'idle'
  | 'truncated'
  | 'reset'
  | 'error-event'
  | 'malformed';

/** What the suite asks of a mock: the call's script and the delay its waits go through. */
export interface ConformanceMockOptions {
  script: MockScript;
  delay: Delay;
}

/** A mock served on a loopback port. */
export interface ConformanceMock {
  /** What `makeAdapter` takes, e.g. `${server.url}` or `${server.url}/v1`. */
  baseUrl: string;
  /** The mock's record of requests. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A mock served through msw. */
export interface ConformanceMswMock {
  baseUrl: string;
  handlers: HttpHandler[];
  requests: RecordedRequest[];
}

interface TargetBase {
  /** Shown in the test titles, e.g. `'anthropic chat'`. */
  name: string;
  /** The key the adapter sends; the suite checks no error message holds it. */
  apiKey: string;
  /** Serves a new mock with `script` on a loopback port. */
  startMock(options: ConformanceMockOptions): Promise<ConformanceMock>;
  /** msw handlers of a new mock with `script`; omit when msw cannot serve the protocol. */
  msw?(options: ConformanceMockOptions): ConformanceMswMock;
  /** The adapter under test, pointed at `baseUrl`. */
  makeAdapter(baseUrl: string): ProviderAdapter;
  /**
   * Body chunks the mock sends up to and including the one that makes the first output item
   * (a chunk as MockScript counts them: one SSE frame, one audio piece).
   */
  chunksToFirstOutput: number;
  /** Adds what the attempt needs beyond the HTTP transport (e.g. a `webSocket` transport). */
  prepareAttempt?(attempt: AttemptContext): AttemptContext;
  /** Checks that do not apply, with the reason shown in the skipped test's title. */
  skip?: Partial<Record<ConformanceCheck, string>>;
}

/** A chat target: `expected.items` is every event of a clean stream, `finish` last. */
export interface ChatConformanceTarget extends TargetBase {
  capability: 'chat';
  request(): ProviderChatRequest;
  expected: { items: ChatEvent[] };
}

/** A TTS target: `expected.bytes` is all the audio of a clean stream, every chunk in `format`. */
export interface TtsConformanceTarget extends TargetBase {
  capability: 'tts';
  request(): ProviderTtsRequest;
  expected: { bytes: Uint8Array; format: AudioFormat };
}

/** An STT target: `expected.items` is every transcript event of a clean stream, the last final last. */
export interface SttConformanceTarget extends TargetBase {
  capability: 'stt';
  /** A fresh request each time: its `audio` iterable is read once. */
  request(): ProviderSttRequest;
  expected: { items: TranscriptEvent[] };
}

/** One provider capability under test. */
export type ConformanceTarget = ChatConformanceTarget | TtsConformanceTarget | SttConformanceTarget;

type Item = ChatEvent | ProviderAudio | TranscriptEvent;
type Mode = 'loopback' | 'msw';

interface Served {
  adapter: ProviderAdapter;
  requests: RecordedRequest[];
  transport: HttpTransport;
  clock: FakeClock;
}

function start(
  target: ConformanceTarget,
  adapter: ProviderAdapter,
  attempt: AttemptContext,
): AsyncIterable<Item> {
  switch (target.capability) {
    case 'chat':
      return required(adapter.chat, 'chat').chat(target.request(), attempt);
    case 'tts':
      return required(adapter.tts, 'tts').synthesize(target.request(), attempt);
    case 'stt':
      return required(adapter.stt, 'stt').transcribe(target.request(), attempt);
  }
}

function required<T>(capability: T | undefined, name: string): T {
  if (capability === undefined) throw new Error(`the adapter has no ${name} capability`);
  return capability;
}

/** Asserts `items` are exactly the target's expected output of a clean stream. */
function expectComplete(target: ConformanceTarget, items: Item[]): void {
  if (target.capability === 'tts') {
    const audio = items as ProviderAudio[];
    for (const chunk of audio) expect(chunk.format).toEqual(target.expected.format);
    expect(audio.every((chunk) => chunk.data.byteLength > 0)).toBe(true);
    const bytes = concat(audio.map((chunk) => chunk.data));
    expect(bytes.byteLength).toBe(target.expected.bytes.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(target.expected.bytes))).toBe(true);
    return;
  }
  expect(items).toEqual(target.expected.items);
  const last = target.capability === 'chat' ? 'finish' : 'final';
  const closing = items.filter((item) => (item as { type: string }).type === last);
  if (target.capability === 'chat') expect(closing).toHaveLength(1);
  expect((items.at(-1) as { type: string } | undefined)?.type).toBe(last);
}

/** Asserts `item` is the first output item of a clean stream (for audio: a non-empty prefix). */
function expectFirst(target: ConformanceTarget, item: Item | undefined): void {
  if (target.capability === 'tts') {
    const audio = item as ProviderAudio;
    expect(audio.format).toEqual(target.expected.format);
    expect(audio.data.byteLength).toBeGreaterThan(0);
    const prefix = target.expected.bytes.subarray(0, audio.data.byteLength);
    expect(Buffer.from(audio.data).equals(Buffer.from(prefix))).toBe(true);
    return;
  }
  expect(item).toEqual(target.expected.items[0]);
}

/** Reads until the stream throws; returns what came before and the error. Fails if it ends normally. */
async function untilError(iterator: AsyncIterator<Item>): Promise<{ items: Item[]; error: unknown }> {
  const items: Item[] = [];
  for (;;) {
    let step: IteratorResult<Item>;
    try {
      step = await iterator.next();
    } catch (error) {
      return { items, error };
    }
    if (step.done) {
      throw new Error(`expected the stream to fail; it ended normally after ${items.length} items`);
    }
    items.push(step.value);
  }
}

function expectNoSecret(error: unknown, apiKey: string): void {
  expect(VoxrouteError.isInstance(error)).toBe(true);
  const text = `${(error as Error).message} ${String((error as Error).stack)}`;
  expect(text.includes(apiKey)).toBe(false);
}

/**
 * Registers the conformance checks of `target` with vitest: one `describe` per mode (loopback,
 * and msw when `target.msw` is given), each check one `it`. Call it at the top level of a test
 * file; one call per target (each call sets up its own msw server for its msw block).
 */
export function describeConformance(target: ConformanceTarget): void {
  const modes: Mode[] = target.msw ? ['loopback', 'msw'] : ['loopback'];
  for (const mode of modes) {
    describe(`conformance: ${target.name} (${mode === 'loopback' ? 'loopback socket, undici' : 'msw, fetch'})`, () => {
      const msw = mode === 'msw' ? setupServer() : undefined;
      const cleanups: Array<() => Promise<void>> = [];
      if (msw) {
        beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
        afterAll(() => msw.close());
      }
      afterEach(async () => {
        msw?.resetHandlers();
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      });

      async function serve(script: MockScript): Promise<Served> {
        const clock = new FakeClock();
        const options = { script, delay: realDelay };
        let baseUrl: string;
        let requests: RecordedRequest[];
        let transport: HttpTransport;
        if (msw && target.msw) {
          const mock = target.msw(options);
          msw.use(...mock.handlers);
          ({ baseUrl, requests } = mock);
          transport = createHttpTransport({ fetch: (input, init) => globalThis.fetch(input, init), clock });
        } else {
          const mock = await target.startMock(options);
          cleanups.push(() => mock.close());
          ({ baseUrl, requests } = mock);
          transport = createHttpTransport({ clock });
        }
        cleanups.push(() => transport.close());
        return { adapter: target.makeAdapter(baseUrl), requests, transport, clock };
      }

      function attemptOf(served: Served, signal: AbortSignal, deadlines: Deadlines = {}): AttemptContext {
        const attempt: AttemptContext = { signal, deadlines, transport: served.transport };
        return target.prepareAttempt ? target.prepareAttempt(attempt) : attempt;
      }

      function check(name: ConformanceCheck, title: string, body: () => Promise<void>): void {
        const reason = target.skip?.[name];
        it.skipIf(reason !== undefined)(reason === undefined ? title : `${title} (skipped: ${reason})`, body);
      }

      check('complete', 'streams every item in order, exactly as sent, and ends cleanly once', async () => {
        const served = await serve({});
        const items: Item[] = [];
        for await (const item of start(
          target,
          served.adapter,
          attemptOf(served, new AbortController().signal),
        ))
          items.push(item);
        expectComplete(target, items);
        const [record] = served.requests;
        expect(served.requests).toHaveLength(1);
        expect(record!.status).toBe(200);
        expect(await record!.ended).toBe('completed');
      });

      check(
        'first-chunk',
        'C27: yields the first item while the provider holds the rest; breaking out closes the request',
        async () => {
          const served = await serve({ stallAfterChunks: target.chunksToFirstOutput });
          const stream = start(target, served.adapter, attemptOf(served, new AbortController().signal));
          const iterator = stream[Symbol.asyncIterator]();
          const first = await iterator.next();
          expect(first.done).toBe(false);
          expectFirst(target, first.value);
          await iterator.return?.();
          const [record] = served.requests;
          expect(await record!.ended).toBe('aborted');
          expect(record!.chunksSent).toBe(target.chunksToFirstOutput);
        },
      );

      /** Serves `script` and runs one call until it throws: what came before, the error, the mock. */
      async function runToError(script: MockScript) {
        const served = await serve(script);
        const iterator = start(target, served.adapter, attemptOf(served, new AbortController().signal))[
          Symbol.asyncIterator
        ]();
        return { served, ...(await untilError(iterator)) };
      }

      check(
        'http-401',
        'HTTP 401 throws a ProviderError that is not retryable and holds no key',
        async () => {
          const { items, error } = await runToError({ failTimes: 1, failStatus: 401 });
          expect(items).toEqual([]);
          const e = fieldsOf(error, ProviderError, 'status', 'retryable', 'partialOutput', 'isAuthError');
          expect(e).toEqual({ status: 401, retryable: false, partialOutput: false, isAuthError: true });
          expectNoSecret(error, target.apiKey);
        },
      );

      check('http-503', 'HTTP 503 throws a retryable ProviderError with the status', async () => {
        const { items, error } = await runToError({ failTimes: 1, failStatus: 503 });
        expect(items).toEqual([]);
        expect(fieldsOf(error, ProviderError, 'status', 'retryable')).toEqual({
          status: 503,
          retryable: true,
        });
        expectNoSecret(error, target.apiKey);
      });

      check(
        'http-429',
        'HTTP 429 with Retry-After throws a retryable ProviderError with retryAfterMs',
        async () => {
          const { error } = await runToError({ failTimes: 1, failStatus: 429, retryAfter: '2' });
          expect(fieldsOf(error, ProviderError, 'status', 'retryable', 'retryAfterMs')).toEqual({
            status: 429,
            retryable: true,
            retryAfterMs: 2000,
          });
        },
      );

      check(
        'abort',
        'C27: aborting mid-stream throws AbortError and the provider sees the disconnect',
        async () => {
          const served = await serve({ stallAfterChunks: target.chunksToFirstOutput });
          const controller = new AbortController();
          const iterator = start(target, served.adapter, attemptOf(served, controller.signal))[
            Symbol.asyncIterator
          ]();
          const first = await iterator.next();
          expectFirst(target, first.value);
          const pending = untilError(iterator);
          controller.abort();
          const { items, error } = await pending;
          expect(AbortError.isInstance(error)).toBe(true);
          // Audio may still hand over the rest of a chunk that had arrived; nothing else may come.
          if (target.capability !== 'tts') expect(items).toEqual([]);
          expect(await served.requests[0]!.ended).toBe('aborted');
        },
      );

      check(
        'idle',
        'C15: a stream stalled after output throws TimeoutError idle with partialOutput',
        async () => {
          const served = await serve({ stallAfterChunks: target.chunksToFirstOutput });
          const iterator = start(
            target,
            served.adapter,
            attemptOf(served, new AbortController().signal, { idleMs: 1000 }),
          )[Symbol.asyncIterator]();
          expectFirst(target, (await iterator.next()).value);
          const pending = untilError(iterator);
          served.clock.advance(1000);
          const { error } = await pending;
          expect(fieldsOf(error, TimeoutError, 'phase', 'timeoutMs', 'retryable', 'partialOutput')).toEqual({
            phase: 'idle',
            timeoutMs: 1000,
            retryable: true,
            partialOutput: true,
          });
          expect(await served.requests[0]!.ended).toBe('aborted');
        },
      );

      /** What a retryable failure after output shows. */
      const AFTER_OUTPUT = { retryable: true, partialOutput: true };

      check(
        'truncated',
        'C29: a body that ends cleanly before its end marker throws ProtocolError (truncated)',
        async () => {
          const { items, error } = await runToError({ endWithoutDone: true });
          expect(items.length).toBeGreaterThan(0);
          expectFirst(target, items[0]);
          expect(fieldsOf(error, ProtocolError, 'retryable', 'partialOutput')).toEqual(AFTER_OUTPUT);
          expect((error as ProtocolError).message).toMatch(/truncated/);
        },
      );

      check(
        'reset',
        'C29: a connection reset after output throws ProtocolError (truncated) with partialOutput',
        async () => {
          const { served, items, error } = await runToError({ resetAfterChunks: target.chunksToFirstOutput });
          expectFirst(target, items[0]);
          expect(fieldsOf(error, ProtocolError, 'retryable', 'partialOutput')).toEqual(AFTER_OUTPUT);
          expect((error as ProtocolError).message).toMatch(/truncated/);
          expect(await served.requests[0]!.ended).toBe('reset');
        },
      );

      check(
        'error-event',
        'C06: an error event after output throws a retryable ProviderError with partialOutput',
        async () => {
          const { items, error } = await runToError({ errorEventAfterChunks: target.chunksToFirstOutput });
          expectFirst(target, items[0]);
          expect(fieldsOf(error, ProviderError, 'status', 'retryable', 'partialOutput')).toEqual({
            status: undefined,
            ...AFTER_OUTPUT,
          });
          const e = error as ProviderError;
          expect(e.providerType ?? e.providerCode).toBeTypeOf('string');
        },
      );

      check(
        'malformed',
        'a frame that is not JSON throws ProtocolError after the output before it',
        async () => {
          const { items, error } = await runToError({ malformedAfterChunks: target.chunksToFirstOutput });
          expectFirst(target, items[0]);
          expect(fieldsOf(error, ProtocolError, 'partialOutput')).toEqual({ partialOutput: true });
        },
      );
    });
  }
}
