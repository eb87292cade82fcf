/**
 * Runs one cell of the fault matrix: the faulty primary (and the healthy backup), a router
 * with short deadlines on a fake clock, one call consumed to its end or error, then
 * router.close(). Returns the outcome as one line (what the caller received, and how the call
 * ended) for expected.ts to compare, and checks that close() left no client socket, timer or
 * other handle open.
 *
 * Time on the router's clock moves only where the fault says it does: the stall faults move it
 * by the deadline that must end the wait, the slow consumer by its pause, each once the network
 * is quiet (quiet.ts). No deadline can fire because the machine is slow, and none that should
 * fire depends on how late a real timer runs.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'vitest';
import {
  AllProvidersFailedError,
  type AudioChunk,
  type ChatEvent,
  createRouter,
  MidStreamError,
  ProviderError,
  type RouterConfig,
  TimeoutError,
  type TranscriptEvent,
  VoxrouteError,
} from '../../../src/index.js';
import type { Clock } from '../../../src/internal/clock.js';
import { FakeClock } from '../../transport/fake-clock.js';
import { STT_AUDIO, TTS_BACKUP, TTS_FIRST, TTS_PRIMARY, TTS_TEXT } from '../fixtures.js';
import { type Cap, DEADLINES, type Fault, SLOW_CONSUMER_PAUSE_MS } from '../matrix.js';
import { startBackup } from './backup.js';
import type { Transport } from './cell.js';
import { quiet, trackServerSockets } from './quiet.js';
import { deferred, Scope, trackClientSockets } from './scope.js';
import { trackTimers } from './timers.js';

/**
 * Active handles and requests by type (process.getActiveResourcesInfo), counted, after two
 * turns of the event loop so that handles being closed have finished closing.
 */
async function resources(): Promise<Map<string, number>> {
  await nextTurn();
  await nextTurn();
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/**
 * Types with more active resources `after` than `before`, timers aside (vitest's own come and
 * go; the timers of the cell are checked one by one, see timers.ts).
 */
function added(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after]
    .filter(([type, n]) => type !== 'Timeout' && n > (before.get(type) ?? 0))
    .map(([type, n]) => `${type} x${n - (before.get(type) ?? 0)}`);
}

/** One error as a line: class, code and what classifies it. */
export function describeError(error: unknown): string {
  if (AllProvidersFailedError.isInstance(error)) {
    const attempts = error.attempts.map(
      (a) => `${a.provider}: ${a.error ? describeError(a.error) : a.outcome}`,
    );
    return `AllProvidersFailedError ${error.code} [${attempts.join('; ')}]`;
  }
  if (MidStreamError.isInstance(error)) {
    const text = error.partialText === undefined ? '' : ` partialText ${JSON.stringify(error.partialText)}`;
    return `MidStreamError ${error.code}${text} <- ${describeError(error.cause)}`;
  }
  if (!VoxrouteError.isInstance(error)) return `untyped ${String(error)}`;
  const parts = [error.name, error.code];
  if (ProviderError.isInstance(error)) {
    if (error.status !== undefined) parts.push(`status ${error.status}`);
    if (error.retryAfterMs !== undefined) parts.push(`retry-after ${error.retryAfterMs} ms`);
  }
  if (TimeoutError.isInstance(error)) parts.push(`phase ${error.phase}`);
  parts.push(error.retryable ? 'retryable' : 'not retryable');
  return parts.join(' ');
}

function describeAudio(bytes: Buffer): string {
  if (bytes.byteLength === 0) return 'no audio';
  if (bytes.equals(TTS_PRIMARY)) return 'primary audio';
  if (bytes.equals(TTS_BACKUP)) return 'backup audio';
  if (bytes.equals(TTS_FIRST)) return 'primary first piece';
  if (bytes.equals(Buffer.concat([TTS_FIRST, TTS_BACKUP]))) return 'primary first piece + backup audio';
  return `${bytes.byteLength} other bytes`;
}

async function* audioPieces(): AsyncGenerator<Uint8Array> {
  const half = STT_AUDIO.byteLength / 2;
  yield STT_AUDIO.subarray(0, half);
  yield STT_AUDIO.subarray(half);
}

/** Consumes the call; on its first item resolves `onFirst`, then awaits `hold` (if any). */
async function consume(
  items: AsyncIterable<unknown>,
  onFirst: () => void,
  hold?: () => Promise<void>,
): Promise<{ items: unknown[]; error: unknown }> {
  const got: unknown[] = [];
  try {
    for await (const item of items) {
      got.push(item);
      if (got.length === 1) {
        onFirst();
        await hold?.();
      }
    }
  } catch (error) {
    return { items: got, error };
  }
  return { items: got, error: undefined };
}

function describeOutput(cap: Cap, items: unknown[]): string {
  if (cap === 'tts') {
    const chunks = items as AudioChunk[];
    return describeAudio(Buffer.concat(chunks.map((c) => Buffer.from(c.data))));
  }
  if (cap === 'stt') {
    const events = (items as TranscriptEvent[]).map((e) => `${e.type} ${e.text}`);
    return `transcript ${JSON.stringify(events)}`;
  }
  const events = items as ChatEvent[];
  const text = events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
  const finish = events.filter((e) => e.type === 'finish').map((e) => e.finishReason);
  return `text ${JSON.stringify(text)} finish ${JSON.stringify(finish)}`;
}

/**
 * One call per capability to a provider of `transport` at a dead port, before the cells: the
 * first call of a process loads what voxroute loads lazily (undici, the AWS SDK, the
 * event-stream codec), whose handles are not the cells' to answer for.
 */
export async function warmUp(transport: Transport): Promise<void> {
  const scope = new Scope();
  try {
    for (const [cap, start] of Object.entries(transport.caps) as Array<
      [Cap, NonNullable<Transport['caps'][Cap]>]
    >) {
      const provider = await start({
        fault: 'refused',
        cap,
        firstSeen: new Promise(() => {}),
        doneWriting: () => {},
        scope,
      });
      const router = createRouter({
        providers: { p: provider },
        routes: { [cap]: { providers: ['p'], firstChunkTimeoutMs: 20_000 } },
      } as unknown as RouterConfig);
      await consume(call(router, cap), () => {});
      await router.close();
    }
  } finally {
    await scope.close();
  }
}

function call(router: ReturnType<typeof createRouter>, cap: Cap): AsyncIterable<unknown> {
  if (cap === 'tts') return router.tts({ text: TTS_TEXT, voice: 'agent' });
  if (cap === 'stt')
    return router.stt({
      audio: audioPieces(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      interim: true,
    });
  return router.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] });
}

/** The whole outcome of one cell as one line: `<output>; <ends normally | error>`. */
export async function runCell(
  transport: Transport,
  cap: Cap,
  fault: Fault,
  backup: boolean,
): Promise<string> {
  const before = await resources();
  const clientSockets = trackClientSockets();
  const serverSockets = trackServerSockets();
  const timers = trackTimers();
  const scope = new Scope();
  try {
    const first = deferred();
    const written = deferred();
    const start = transport.caps[cap];
    if (!start) throw new Error(`${transport.name} does not carry ${cap}`);
    const providers: Record<string, unknown> = {
      p: await start({ fault, cap, firstSeen: first.promise, doneWriting: written.resolve, scope }),
    };
    const b = backup ? await startBackup(cap, scope) : undefined;
    if (b) providers.b = b.config;
    const clock = new FakeClock();
    let fired = 0;
    const counted: Clock = {
      now: () => clock.now(),
      setTimeout: (fn, ms) =>
        clock.setTimeout(() => {
          fired++;
          fn();
        }, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle),
    };
    const router = createRouter(
      {
        providers,
        routes: { [cap]: { providers: Object.keys(providers), strategy: 'priority', ...DEADLINES } },
      } as RouterConfig,
      { clock: counted },
    );
    /** Resolves once the server has written all it will and the network is quiet. */
    const quietNetwork = () => quiet(written.promise, clientSockets.sockets, serverSockets.sockets);
    let seen = false;
    void first.promise.then(() => {
      seen = true;
    });
    // The stalls: the provider is silent for as long as the deadline that must end the wait
    // (idle once the caller has the first output, first-chunk before): no timer of the router
    // fires 1 ms before it, one fires at it. Not awaited: a call that ends otherwise never lets
    // it pass, and its outcome says so.
    const stalls = fault === 'stall before first chunk' || fault === 'stall mid-stream';
    let stall: { firedEarly: number; firedAtDeadline: boolean } | { error: unknown } | undefined;
    if (stalls)
      quietNetwork()
        .then(() => {
          clock.advance((seen ? DEADLINES.idleTimeoutMs : DEADLINES.firstChunkTimeoutMs) - 1);
          const early = fired;
          clock.advance(1);
          stall = { firedEarly: early, firedAtDeadline: fired > early };
          // Nothing ended the stall: let a minute pass so that the call ends and the cell fails
          // on this line rather than on the test's timeout.
          if (fired === early) clock.advance(60_000);
        })
        .catch((error: unknown) => {
          stall = { error };
        });
    // The fault itself: a caller that holds the stream longer than the route's idle deadline
    // between two reads, while the provider has sent the rest of its answer.
    const hold =
      fault === 'slow consumer'
        ? async () => {
            await quietNetwork();
            clock.advance(SLOW_CONSUMER_PAUSE_MS);
          }
        : undefined;
    const { items, error } = await consume(call(router, cap), first.resolve, hold);
    if (stalls)
      expect(stall, 'router clock timers around the stall deadline').toEqual({
        firedEarly: 0,
        firedAtDeadline: true,
      });
    await router.close();
    // Two turns of the event loop: Node destroys an HTTP/2 session's socket on the next one.
    await nextTurn();
    await nextTurn();
    const open = clientSockets.stop().filter((s) => !s.destroyed);
    expect(open.length, 'client sockets still open after router.close()').toBe(0);
    await scope.close();
    // After the servers closed: their own timers (e.g. ws's close handshake) are gone by then.
    expect(timers.stop().join('\n'), 'timers still pending after router.close()').toBe('');
    expect(clock.pending, 'timers of the router clock still pending after router.close()').toBe(0);
    expect(
      added(before, await resources()),
      'handles left after router.close() and the servers closed',
    ).toEqual([]);
    const end = error === undefined ? 'ends normally' : describeError(error);
    const backupHits = b ? `; backup hits ${b.hits()}` : '';
    return `${describeOutput(cap, items)}; ${end}${backupHits}`;
  } finally {
    clientSockets.stop();
    serverSockets.stop();
    timers.stop();
    await scope.close();
  }
}
