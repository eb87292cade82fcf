/**
 * One fuzz case: the adapter's server answers with a mutated answer, a router puts a healthy
 * OpenAI-compatible backup behind it, one call is consumed, and the outcome is judged against
 * the contract (docs/errors.md, docs/routing.md "Failures"):
 * - the call ends normally with exactly the backup's output (the primary failed before its
 *   first output, the backup asked once), or with the primary's own output (a mutation the wire
 *   allows: never one whose end marker was cut or removed, audio always whole samples, chat one
 *   `finish`, never a byte of the backup beside it);
 * - or, after the primary's output, a MidStreamError (the route's default `midStream: 'error'`)
 *   with a typed cause, the backup not asked;
 * - never an untyped error, an unhandled rejection, a call that does not settle once the
 *   provider's connection ended (the router runs on a fake clock: no deadline ends a hang; a
 *   socket the provider keeps open gets the route's idle deadline, passed on that clock once the
 *   network is quiet), or a secret in an error, a router event or a log line.
 * Returns the outcome as a line and the list of what broke the contract (empty when none).
 */

import { setImmediate as nextTurn } from 'node:timers/promises';
import { inspect } from 'node:util';
import {
  AllProvidersFailedError,
  type AudioChunk,
  type ChatEvent,
  createRouter,
  MidStreamError,
  ProviderError,
  type RouterConfig,
  type TranscriptEvent,
  VoxrouteError,
} from '../../../src/index.js';
import { ROUTER_EVENT_NAMES } from '../../../src/routing/events.js';
import { pcmSignal } from '../../cases/wire/servers.js';
import { CHAT_BACKUP, STT_BACKUP, TTS_BACKUP } from '../../faults/fixtures.js';
import { startBackup } from '../../faults/wire/backup.js';
import { quiet, trackServerSockets } from '../../faults/wire/quiet.js';
import { Scope, trackClientSockets } from '../../faults/wire/scope.js';
import { FakeClock } from '../../transport/fake-clock.js';
import { type FuzzAdapter, PCM } from './adapters.js';
import type { Mutated } from './answer.js';
import { type Mutation, mutate, mutateTwice } from './mutations.js';
import { type Slot, slot } from './servers.js';

/** Past the route's default idle deadline (docs/routing.md: `idleTimeoutMs` 5000). */
const IDLE_DEADLINE_MS = 5_001;
/** Past the route's default first-chunk deadline before any sample (`'auto'`: 10000). */
const FIRST_CHUNK_DEADLINE_MS = 10_001;

/** How long (real time) a call may take to settle once the provider ended its connection. */
const SETTLE_MS = Number(process.env.WIRE_FUZZ_SETTLE_MS ?? 3_000);

/** What a running adapter harness holds: its server, the backup, what to close. */
export interface Harness {
  adapter: FuzzAdapter;
  slot: Slot;
  primary: Record<string, unknown>;
  backup: { config: Record<string, unknown>; hits: () => number };
  scope: Scope;
}

export async function startHarness(adapter: FuzzAdapter): Promise<Harness> {
  const scope = new Scope();
  const s = slot();
  const primary = await adapter.start(scope, s);
  const backup = await startBackup(adapter.cap, scope);
  return { adapter, slot: s, primary, backup, scope };
}

const STT_AUDIO = pcmSignal(800, 16_000, 3);
async function* audio(): AsyncGenerator<Uint8Array> {
  yield STT_AUDIO.subarray(0, 800);
  yield STT_AUDIO.subarray(800);
}

function call(router: ReturnType<typeof createRouter>, cap: FuzzAdapter['cap']): AsyncIterable<unknown> {
  if (cap === 'tts')
    return router.tts({
      text: 'Hello there.',
      voice: 'agent',
      format: { encoding: 'pcm_s16le', sampleRate: 24_000 },
    });
  if (cap === 'stt')
    return router.stt({ audio: audio(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } });
  return router.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] });
}

function describeError(error: unknown): string {
  if (AllProvidersFailedError.isInstance(error))
    return `AllProvidersFailedError [${error.attempts.map((a) => `${a.provider}: ${a.error ? describeError(a.error) : a.outcome}`).join('; ')}]`;
  if (MidStreamError.isInstance(error)) return `MidStreamError <- ${describeError(error.cause)}`;
  if (!VoxrouteError.isInstance(error))
    return `untyped ${inspect(error, { depth: 2 }).split('\n').slice(0, 3).join(' ')}`;
  const status = ProviderError.isInstance(error) && error.status !== undefined ? ` ${error.status}` : '';
  return `${error.name}${status}${error.retryable ? '' : ' (not retryable)'}: ${error.message.slice(0, 160)}`;
}

function describeOutput(cap: FuzzAdapter['cap'], items: unknown[]): string {
  if (cap === 'tts') {
    const bytes = Buffer.concat((items as AudioChunk[]).map((c) => Buffer.from(c.data)));
    if (bytes.byteLength === 0) return 'no audio';
    if (bytes.equals(PCM)) return 'primary audio';
    if (bytes.equals(TTS_BACKUP)) return 'backup audio';
    return `${bytes.byteLength} bytes of audio`;
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

const BACKUP_OUTPUT = {
  tts: 'backup audio',
  stt: `transcript ${JSON.stringify([`final ${STT_BACKUP}`])}`,
  chat: `text ${JSON.stringify(CHAT_BACKUP)} finish ["stop"]`,
};

/** Mutations whose answer still holds all of the valid answer's output and its end. */
function keepsWholeAnswer(m: Mutated, adapter: FuzzAdapter): boolean {
  if (m.kind === 'none' || m.kind === 'duplicate-end' || m.kind === 'rechunk') return true;
  return m.kind === 'truncate' && adapter.wire.ends.length > 0 && m.endKept === true;
}

/** Mutations that only take from the end of the answer (or re-cut it): what was delivered is a prefix of the valid answer's output. */
const TAIL_ONLY = new Set(['none', 'rechunk', 'truncate', 'close', 'drop-end']);

/** Whether `items` are a prefix of what the valid answer gives (audio bytes, text, transcript events). */
function isPrefixOfValid(adapter: FuzzAdapter, items: unknown[]): boolean {
  if (adapter.cap === 'tts') {
    const bytes = Buffer.concat((items as AudioChunk[]).map((c) => Buffer.from(c.data)));
    return PCM.subarray(0, bytes.byteLength).equals(bytes);
  }
  if (adapter.cap === 'chat') {
    const text = (items as ChatEvent[]).map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    const valid = JSON.parse(/^text (".*") finish/.exec(adapter.valid)?.[1] ?? '""') as string;
    return valid.startsWith(text);
  }
  const events = (items as TranscriptEvent[]).map((e) => `${e.type} ${e.text}`);
  const valid = JSON.parse(adapter.valid.replace(/^transcript /, '')) as string[];
  return events.every((e, i) => valid[i] === e);
}

export interface CaseResult {
  mutation: Mutated;
  outcome: string;
  violations: string[];
}

/** A router over the harness's primary then backup, on a fake clock, with its events and log lines. */
export interface FuzzRouter {
  router: ReturnType<typeof createRouter>;
  clock: FakeClock;
  logs: unknown[];
  events: unknown[];
}

export function fuzzRouter(h: Harness): FuzzRouter {
  const logs: unknown[] = [];
  const events: unknown[] = [];
  const clock = new FakeClock();
  const router = createRouter(
    {
      providers: { p: h.primary, b: h.backup.config },
      routes: { [h.adapter.cap]: { providers: ['p', 'b'], strategy: 'priority' } },
    } as unknown as RouterConfig,
    {
      clock,
      logger: {
        warn: (message, attributes) => logs.push({ message, attributes }),
        debug: (message, attributes) => logs.push({ message, attributes }),
      },
    },
  );
  for (const name of ROUTER_EVENT_NAMES) router.on(name, (e: unknown) => events.push({ name, e }));
  return { router, clock, logs, events };
}

/**
 * Longer than any breaker cooldown (Retry-After's cap is 600 s): advanced before each call of a
 * shared router, so the primary is always asked (closed, or half-open with this call its probe).
 */
const PAST_EVERY_COOLDOWN_MS = 700_000;

/**
 * Runs one case; `unhandled` is the test file's list of unhandled rejections. With `shared`, the
 * call goes through that router (warm sockets, pooled connections and health kept from the
 * cases before), which is left open; otherwise through a router of its own, closed after.
 */
export async function runCase(
  h: Harness,
  mutation: Mutation | readonly [Mutation, Mutation],
  unhandled: unknown[],
  shared?: FuzzRouter,
): Promise<CaseResult> {
  const { adapter } = h;
  const key = adapter.secrets[0] as string;
  const mutated =
    'kind' in mutation
      ? mutate(adapter.frames, adapter.wire, mutation, key)
      : mutateTwice(adapter.frames, adapter.wire, mutation[0], mutation[1], key);
  h.slot.reset(mutated);
  const backupBefore = h.backup.hits();
  const unhandledBefore = unhandled.length;
  const fuzz = shared ?? fuzzRouter(h);
  const { router, logs, events } = fuzz;
  logs.length = 0;
  events.length = 0;
  if (shared) shared.clock.advance(PAST_EVERY_COOLDOWN_MS);
  const clientSockets = trackClientSockets();
  const serverSockets = trackServerSockets();
  const items: unknown[] = [];
  let error: unknown;
  let settled = false;
  const consumed = (async () => {
    try {
      for await (const item of call(router, adapter.cap)) items.push(item);
    } catch (e) {
      error = e;
    }
    settled = true;
  })();
  // A bounded wait for the call to settle once the server finished its answer (not a sleep: it
  // ends as soon as the call does, and only a hang lets it run out).
  let watchdog: NodeJS.Timeout | undefined;
  await Promise.race([
    consumed,
    h.slot.finished.then(
      () =>
        new Promise<void>((resolve) => {
          // A socket kept open: the idle deadline is let pass below, as soon as the network is quiet.
          watchdog = setTimeout(resolve, mutated.ending === 'open' ? 0 : SETTLE_MS);
        }),
    ),
  ]);
  clearTimeout(watchdog);
  if (!settled && mutated.ending === 'open') {
    // The provider kept its connection open and went silent: only a route deadline can end the
    // wait (idle 5 s; first chunk 10 s before any output). Once the network is quiet (every
    // byte written was read), let each pass on the router's clock in turn, then wait again.
    await quiet(h.slot.finished, clientSockets.sockets, serverSockets.sockets);
    for (const ms of [IDLE_DEADLINE_MS, FIRST_CHUNK_DEADLINE_MS]) {
      if (settled) break;
      fuzz.clock.advance(ms);
      await Promise.race([
        consumed,
        new Promise<void>((resolve) => {
          watchdog = setTimeout(resolve, SETTLE_MS);
        }),
      ]);
      clearTimeout(watchdog);
    }
  }
  const hung = !settled;
  clientSockets.stop();
  serverSockets.stop();
  if (!shared || hung) await router.close();
  if (hung) await Promise.race([consumed, new Promise((r) => setTimeout(r, 500).unref())]);
  await nextTurn();
  await nextTurn();
  const backupHits = h.backup.hits() - backupBefore;
  const output = describeOutput(adapter.cap, items);
  const end = hung ? 'HANG' : error === undefined ? 'ends normally' : describeError(error);
  const outcome = `${output}; ${end}; backup hits ${backupHits}`;
  const v: string[] = [];
  if (hung) v.push('the call did not settle after the provider ended its connection');
  if (unhandled.length > unhandledBefore)
    v.push(
      `unhandled rejection: ${unhandled
        .slice(unhandledBefore)
        .map((u) => String(u))
        .join(' | ')}`,
    );
  if (h.slot.hits === 0) v.push('the primary was never asked');
  if (backupHits > 1) v.push(`the backup was asked ${backupHits} times`);
  if (!hung && error !== undefined) {
    if (!VoxrouteError.isInstance(error)) v.push('an untyped error reached the caller');
    else if (items.length > 0) {
      if (!MidStreamError.isInstance(error)) v.push('after output the call failed without a MidStreamError');
      else if (!VoxrouteError.isInstance(error.cause)) v.push('MidStreamError with an untyped cause');
      if (backupHits > 0) v.push('the backup was asked after the primary had output (mixed output)');
    } else v.push('no fallback: the call failed before any output with a healthy backup behind');
  }
  if (!hung && error === undefined) {
    if (backupHits >= 1 && output !== BACKUP_OUTPUT[adapter.cap])
      v.push(`the backup served, but the caller got ${output} (mixed output)`);
    if (backupHits === 0) {
      if (mutated.endKept === false) v.push('silent truncation: ended normally without the answer’s end');
      if (keepsWholeAnswer(mutated, adapter) && output !== adapter.valid)
        v.push(`wrong output for a whole answer: ${output} instead of ${adapter.valid}`);
      if (adapter.cap === 'tts') {
        const chunks = items as AudioChunk[];
        if (chunks.some((c) => c.data.byteLength % 2 !== 0)) v.push('an audio chunk of a partial sample');
        if (chunks.some((c) => c.format.encoding !== 'pcm_s16le' || c.format.sampleRate !== 24_000))
          v.push('audio in another format than asked');
        const bytes = Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
        if (
          mutated.kind === 'truncate' &&
          adapter.wire.ends.length === 0 &&
          !PCM.subarray(0, bytes.byteLength).equals(bytes)
        )
          v.push('a cut raw body gave audio that is not a prefix of the answer');
      }
      if (adapter.cap === 'chat') {
        const finishes = (items as ChatEvent[]).filter((e) => e.type === 'finish').length;
        if (finishes !== 1 || (items as ChatEvent[]).at(-1)?.type !== 'finish')
          v.push(`chat ended normally with ${finishes} finish events (not one, last)`);
      }
    }
  }
  if (TAIL_ONLY.has(mutated.kind) && backupHits === 0 && !isPrefixOfValid(adapter, items))
    v.push(`a cut answer delivered output that is not a prefix of the valid one: ${output}`);
  if (mutated.kind === 'none' && outcome !== `${adapter.valid}; ends normally; backup hits 0`)
    v.push(`the valid answer gave ${outcome}`);
  const seen = [
    inspect(error, { depth: 12, showHidden: true }),
    error instanceof Error ? String(error.stack) : '',
    inspect(events, { depth: 12, showHidden: true }),
    inspect(logs, { depth: 12 }),
  ].join('\n');
  for (const secret of adapter.secrets)
    if (seen.includes(secret) || seen.toLowerCase().includes(secret.toLowerCase()))
      v.push('a secret appears in an error, event or log line');
  return { mutation: mutated, outcome, violations: v };
}
