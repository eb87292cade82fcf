import { expect } from 'vitest';
import { VoxrouteError } from '../../../src/errors/index.js';
import { type CartesiaAdapter, createCartesiaAdapter } from '../../../src/providers/cartesia/index.js';
import type { CartesiaAdapterOptions } from '../../../src/providers/cartesia/options.js';
import type { AttemptContext } from '../../../src/providers/types.js';
import {
  type CartesiaMock,
  type CartesiaMockOptions,
  createCartesiaMock,
} from '../../../src/testing/cartesia/index.js';
import { type MockServer, startMockServer } from '../../../src/testing/mock-server.js';
import { createHttpTransport } from '../../../src/transport/index.js';
import type { Deadlines, HttpTransport } from '../../../src/transport/types.js';
import { createWebSocketTransport } from '../../../src/transport/websocket.js';
import type { WebSocketTransport } from '../../../src/transport/websocket-types.js';
import type { Primary } from '../../helpers/streamed-tts.js';

/** The key every Cartesia test uses; no error message may contain it. */
export const API_KEY = 'sk_car_test_0123456789abcdef';

/** Checks `error` is a VoxrouteError whose message and stack do not contain {@link API_KEY}. */
export function expectNoKey(error: unknown): void {
  expect(VoxrouteError.isInstance(error)).toBe(true);
  expect(`${(error as Error).message}\n${(error as Error).stack}`.includes(API_KEY)).toBe(false);
}

/**
 * A Cartesia mock (key {@link API_KEY}) as the primary `sonic` of `startWithBackup`: TTS over
 * the WebSocket, voice `agent`: `cartesia-voice-1`.
 */
export function sonicPrimary(options: CartesiaMockOptions = {}): Primary<CartesiaMock> {
  return {
    name: 'sonic',
    mock: createCartesiaMock({ apiKey: API_KEY, ...options }),
    config: (url) => ({
      kind: 'cartesia',
      baseUrl: url,
      apiKey: API_KEY,
      tts: { voices: { agent: 'cartesia-voice-1' }, transport: 'websocket' },
    }),
  };
}

/** A Cartesia mock served on a loopback port, and an adapter pointed at it. */
export interface Loopback {
  mock: CartesiaMock;
  server: MockServer;
  http: HttpTransport;
  webSocket: WebSocketTransport;
  adapter(options?: Partial<CartesiaAdapterOptions>): CartesiaAdapter;
  attempt(signal?: AbortSignal, deadlines?: Deadlines): AttemptContext;
  close(): Promise<void>;
}

/** Starts the mock (key required: {@link API_KEY}) on a loopback port with real transports. */
export async function startLoopback(options: CartesiaMockOptions = {}): Promise<Loopback> {
  const mock = createCartesiaMock({ apiKey: API_KEY, ...options });
  const server = await startMockServer({ provider: mock });
  const http = createHttpTransport();
  const webSocket = createWebSocketTransport();
  const adapters: CartesiaAdapter[] = [];
  return {
    mock,
    server,
    http,
    webSocket,
    adapter(extra = {}) {
      const adapter = createCartesiaAdapter({
        name: 'cartesia',
        baseUrl: server.url,
        apiKey: API_KEY,
        tts: { model: 'sonic-3', transport: 'bytes' },
        stt: { model: 'ink-whisper' },
        ...extra,
      });
      adapters.push(adapter);
      return adapter;
    },
    attempt(signal = new AbortController().signal, deadlines = { connectMs: 5000, idleMs: 5000 }) {
      return { signal, deadlines, transport: http, webSocket };
    },
    async close() {
      await Promise.all(adapters.map((a) => a.close()));
      await http.close();
      await server.close();
    },
  };
}

export { concatBytes as concat } from '../../helpers/index.js';

/** An async iterable of `pieces`, each after the previous was taken. */
export async function* textPieces(pieces: readonly string[]): AsyncGenerator<string> {
  for (const piece of pieces) yield piece;
}

export { collect, collectUntilError } from '../../helpers/index.js';

/** An async iterable fed by the test: `push` a value, `end` it, or `fail` it. */
export interface Pushable<T> extends AsyncIterable<T> {
  push(value: T): void;
  end(): void;
  fail(error: unknown): void;
  /** True once the consumer stopped reading (`return()` was called). */
  readonly returned: boolean;
}

/** A {@link Pushable}: values wait until read; a read waits until a value comes. */
export function pushable<T>(): Pushable<T> {
  const values: Array<IteratorResult<T> | { error: unknown }> = [];
  let wake: (() => void) | undefined;
  let returned = false;
  const add = (item: IteratorResult<T> | { error: unknown }) => {
    values.push(item);
    wake?.();
    wake = undefined;
  };
  return {
    push: (value) => add({ value, done: false }),
    end: () => add({ value: undefined, done: true }),
    fail: (error) => add({ error }),
    get returned() {
      return returned;
    },
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<T>> {
          while (values.length === 0) {
            if (returned) return { value: undefined, done: true };
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
          const item = values.shift()!;
          if ('error' in item) throw item.error;
          return item;
        },
        async return(): Promise<IteratorResult<T>> {
          returned = true;
          wake?.();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * Resolves once `predicate()` is true, checking again after every turn of the event loop (no
 * fixed sleep); fails after `limitMs` of real time.
 */
export async function until(predicate: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > limitMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * A Cartesia adapter speaking TTS over the WebSocket at `url` (key `sk_car_replay_test`, model
 * sonic-3, `tts` settings added), kept in `made` so the caller's afterEach closes it, and
 * `attempt(signal?)`: a fresh attempt on undici and ws transports with 5 s connect and idle
 * deadlines.
 */
export function webSocketTtsAt(
  url: string,
  made: CartesiaAdapter[],
  tts: Partial<NonNullable<CartesiaAdapterOptions['tts']>> = {},
) {
  const adapter = createCartesiaAdapter({
    name: 'cartesia',
    baseUrl: url,
    apiKey: 'sk_car_replay_test',
    tts: { model: 'sonic-3', transport: 'websocket', ...tts },
  });
  made.push(adapter);
  const attempt = (signal = new AbortController().signal): AttemptContext => ({
    signal,
    deadlines: { connectMs: 5000, idleMs: 5000 },
    transport: createHttpTransport(),
    webSocket: createWebSocketTransport(),
  });
  return { tts: adapter.tts!, attempt };
}
