import type { ResolvedHealthConfig } from '../config/health.js';
import type { Clock } from '../internal/clock.js';
import type { HealthRegistry, HealthStateChange } from '../routing/health/index.js';
import { BREAKER_DEFAULTS } from '../routing/health/options.js';
import type { LatencyTracker } from '../routing/latency-tracker.js';
import type { Logger } from '../routing/router-types.js';
import type { Capability } from '../types/route-result.js';
import { fleetChannel } from './channel.js';
import { warnFleetOff } from './fleet-off-warning.js';
import { warnFleetIgnored } from './ignored-warning.js';
import {
  type BreakerMessage,
  decodeBreakerMessage,
  decodeLatencySummary,
  encodeMessage,
  foreignVersion,
} from './messages.js';
import type { FleetConnections } from './redis-client.js';
import { type FleetLease, leaseFleet } from './shared-connections.js';
import { storeMessageRedactor } from './store-redaction.js';

/** State of the shared store as a router sees it. */
export type FleetState = 'connecting' | 'ready' | 'down' | 'unavailable' | 'closed';

/** What `router.on('fleet', ...)` receives. `error` is a message with no secret in it. */
export interface FleetEvent {
  /**
   * `'connected'`: the shared store is ready; `'disconnected'`: a ready store was lost;
   * `'error'`: a store command or the connection failed (a message repeated back to back is
   * reported once); `'dropped'`: writes were dropped (at most one such event a second);
   * `'ignored'`: a message or stored value was ignored (malformed, written by another voxroute
   * version or by another app on the same key prefix; at most one such event a second).
   */
  type: 'connected' | 'disconnected' | 'error' | 'dropped' | 'ignored';
  /** With `type: 'error'`: what failed, with no secret in it; otherwise undefined. */
  error?: string;
}

/** `router.stats().fleet`, when the config has a `health` section. */
export interface FleetStats {
  /**
   * `'connecting'` until the store first answers (for as long as it cannot be reached or
   * refuses the password: the client keeps reconnecting, and `lastError` says why), then
   * `'ready'`; `'down'` after a ready store was lost; `'unavailable'` when ioredis is missing
   * (shared health is then off for the router's life); `'closed'` after `router.close()`.
   */
  state: FleetState;
  /** Breaker messages published. */
  published: number;
  /** Breaker messages received from other processes. */
  received: number;
  /** Writes dropped: the store was down, too slow (too many commands pending) or over the rate. */
  dropped: number;
  /**
   * Messages and stored values ignored: malformed, written by another voxroute version, or not
   * by voxroute (another app on the same key prefix). The first one is also told to the
   * router's `logger` (else as a process warning, code `VOXROUTE_FLEET_MESSAGE_IGNORED`).
   */
  ignored: number;
  /** Store commands that failed. */
  errors: number;
  /** The last store error, without secrets. */
  lastError: string | undefined;
}

/** Timings of a {@link FleetHealth}; tests shorten them. */
export interface FleetTimings {
  /** How often the latency summaries are written, ms. Default 5 000. */
  summaryIntervalMs?: number;
  /** How often other processes' summaries are read, ms. Default 30 000. */
  readIntervalMs?: number;
  /** Lifetime of the fleet probe lock, ms. Default 10 000. */
  probeLockMs?: number;
}

/** What a {@link FleetHealth} works with: the router's breakers, tracker and clock. */
export interface FleetHealthDeps {
  config: ResolvedHealthConfig;
  health: HealthRegistry;
  tracker: LatencyTracker;
  clock: Clock;
  onEvent: (event: FleetEvent) => void;
  /**
   * The router's logger: told once, at `warn`, when the store cannot be used at all (ioredis not
   * installed), since then nothing else would show that fleet-shared health is off. Without a
   * logger, a process warning (code `VOXROUTE_FLEET_HEALTH_OFF`) says it, once per process.
   */
  logger?: Logger | undefined;
  /**
   * Whether this router's config has `provider` with `capability`. The fleet's messages name
   * providers by their config names, and a peer may serve more: a peer's breaker opening or
   * latency summary for a pair this router lacks is ignored (no breaker, no event, no tracker
   * entry for it). Default: every pair is taken.
   */
  serves?: (provider: string, capability: Capability) => boolean;
  /** Unix epoch ms. Default `Date.now`. */
  wallNow?: () => number;
  connect?: (url: string) => Promise<FleetConnections>;
  timings?: FleetTimings;
}

/** A listener on a connection (an EventEmitter's). */
type Listener = Parameters<FleetConnections['commands']['off']>[1];

/** Most commands pending at once; past it writes are dropped (a slow or full store). */
const MAX_PENDING = 64;
/** Publish rate bound: a bucket of 40 messages refilled at 20 per s. */
const BUCKET_SIZE = 40;
const BUCKET_RATE_PER_MS = 20 / 1000;
/** A latency summary older than this is not used to seed. */
const SUMMARY_MAX_AGE_MS = 10 * 60_000;
/** Least time between two attempts at the probe lock of one breaker, ms. */
const LOCK_RETRY_MS = 250;
/**
 * Time a process that took the fleet probe lock has to start its probe, ms. The gate is asked
 * for every candidate of every call, so a process that never calls the provider (a fallback it
 * does not need now) takes the lock as readily as one that needs it; holding it unused kept
 * every other process from probing for the lock's whole lifetime, again and again.
 */
const UNUSED_LOCK_MS = 1_000;
/**
 * Time a process that released the lock unused leaves it to the others, ms: long enough for a
 * process that calls the provider every couple of seconds to take it, short enough that a
 * holder whose next call was merely late gets it back soon.
 */
const UNUSED_LOCK_BACKOFF_MS = 3_000;
/** Wait before subscribing and reading the fleet's state again after that failed, ms. */
const RESYNC_RETRY_MS = 2_000;
/**
 * Longest a peer's opening may keep a breaker here open, ms: the longest cooldown a breaker
 * opens for (a Retry-After is capped at 10 min, an auth failure opens for 5 min, a grown
 * cooldown for at most 60 s plus jitter). A longer one (a corrupt or hostile message, a peer's
 * clock far ahead) is cut to it.
 */
const MAX_PEER_OPEN_MS = Math.max(
  BREAKER_DEFAULTS.maxRetryAfterMs,
  BREAKER_DEFAULTS.authCooldownMs,
  BREAKER_DEFAULTS.maxCooldownMs * (1 + BREAKER_DEFAULTS.jitter),
);

const RELEASE_LOCK =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

interface Shared {
  provider: string;
  capability: Capability;
  /** Until when the breaker is open, on the local clock. */
  until: number;
  /** Another process's probe succeeded: probes are free again. */
  recovered: boolean;
  /**
   * This process may probe until then (local clock): it holds the fleet probe lock, or the store
   * failed to answer for it (this router then probes alone, as without a store).
   */
  probeUntil: number | undefined;
  /** This process holds the fleet probe lock (released when its probe settles). */
  held: boolean;
  /** Checks, {@link UNUSED_LOCK_MS} after the lock was won, that a probe started. */
  unusedCheck: ReturnType<typeof setTimeout> | undefined;
  /** This process released the lock unused: it does not take it again before then (local clock). */
  backoffUntil: number | undefined;
  lockTriedAt: number | undefined;
  locking: boolean;
}

/**
 * Fleet-shared provider health over Redis (see docs/health.md, "Fleet-shared health"):
 * publishes this router's breaker openings and closings on a channel, applies the other
 * processes' openings to the local breakers (`openUntil`), lets one process of the fleet probe
 * after a shared cooldown (a `SET NX PX` lock taken in the background), and writes and reads
 * latency summaries to seed cold (provider, capability, model) entries. No store command is
 * ever awaited by a call: every write is fire-and-forget and bounded, every read refreshes
 * local state in the background.
 */
export class FleetHealth {
  readonly #d: FleetHealthDeps;
  // The Web Crypto global: node:crypto is not loaded for it (importing voxroute stays light).
  readonly #id = globalThis.crypto.randomUUID();
  readonly #channel: string;
  readonly #breakersKey: string;
  readonly #latencyKey: string;
  readonly #wallNow: () => number;
  /** Cleans a store client's message of the URL and its secrets (see storeMessageRedactor). */
  readonly #redact: (message: string) => string;
  readonly #shared = new Map<string, Shared>();
  readonly #published = new Map<string, number>();
  readonly #seeded = new Set<string>();
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #stats: FleetStats = {
    state: 'connecting',
    published: 0,
    received: 0,
    dropped: 0,
    ignored: 0,
    errors: 0,
    lastError: undefined,
  };
  #resyncTimer: ReturnType<typeof setTimeout> | undefined;
  #lastIgnoredEventAt = Number.NEGATIVE_INFINITY;
  #conn: FleetConnections | undefined;
  #lease: FleetLease | undefined;
  /** This router's listeners on the shared connections, removed by close(). */
  readonly #listeners: [FleetConnections['commands'], string, Listener][] = [];
  #pending = 0;
  #tokens = BUCKET_SIZE;
  #tokensAt: number;
  #lastDropEventAt = Number.NEGATIVE_INFINITY;
  #offHealth: () => void;
  /** Resolves once connected and subscribed, or once that failed (never rejects). */
  readonly ready: Promise<void>;

  constructor(deps: FleetHealthDeps) {
    this.#d = deps;
    const prefix = deps.config.keyPrefix;
    this.#channel = fleetChannel(prefix, deps.config.url);
    this.#breakersKey = `${prefix}breakers`;
    this.#latencyKey = `${prefix}latency`;
    this.#wallNow = deps.wallNow ?? Date.now;
    this.#redact = storeMessageRedactor(deps.config.url);
    this.#tokensAt = deps.clock.now();
    this.#offHealth = deps.health.onStateChange((change) => this.#onLocalChange(change));
    deps.health.setProbeGate((provider, capability) => this.#gate(provider, capability));
    this.ready = this.#start();
  }

  stats(): FleetStats {
    return { ...this.#stats };
  }

  async close(): Promise<void> {
    this.#stats.state = 'closed';
    this.#offHealth();
    this.#d.health.setProbeGate(undefined);
    for (const timer of this.#timers) clearInterval(timer);
    clearTimeout(this.#resyncTimer);
    for (const s of this.#shared.values()) clearTimeout(s.unusedCheck);
    this.#conn = undefined;
    for (const [client, event, listener] of this.#listeners.splice(0)) client.off(event, listener);
    this.#lease?.release();
    this.#lease = undefined;
  }

  async #start(): Promise<void> {
    let lease: FleetLease;
    try {
      lease = await leaseFleet(this.#d.config.url, this.#d.connect);
    } catch (error) {
      this.#stats.state = 'unavailable';
      this.#fail(error);
      warnFleetOff(this.#stats.lastError ?? 'the shared store cannot be used', this.#d.logger);
      return;
    }
    if (this.#stats.state === 'closed') {
      lease.release();
      return;
    }
    const conn = lease.conn;
    this.#lease = lease;
    this.#conn = conn;
    const t = this.#d.timings ?? {};
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref?.();
      this.#timers.push(timer);
    };
    every(t.summaryIntervalMs ?? 5_000, () => this.#writeSummaries());
    every(t.readIntervalMs ?? 30_000, () => this.#readSummaries());
    const listen = (client: FleetConnections['commands'], event: string, listener: Listener) => {
      client.on(event, listener);
      this.#listeners.push([client, event, listener]);
    };
    for (const c of [conn.commands, conn.subscriber]) {
      listen(c, 'error', (error: unknown) => this.#fail(error));
      listen(c, 'close', () => this.#down());
    }
    listen(conn.subscriber, 'message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#onMessage(text);
    });
    let settle: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const onReady = () => {
      if (conn.commands.status === 'ready' && conn.subscriber.status === 'ready')
        void this.#resync(conn).finally(settle);
    };
    listen(conn.commands, 'ready', onReady);
    listen(conn.subscriber, 'ready', onReady);
    onReady();
    // Not reachable within the connect timeout: go on without it (it keeps reconnecting).
    const timer = setTimeout(settle, 2_500);
    timer.unref?.();
    await first;
    clearTimeout(timer);
  }

  /**
   * (Re)connected: subscribe, read the fleet's open breakers and summaries, republish ours. When
   * the store fails to answer (a command timed out: a Redis busy for a second just then), tried
   * again every 2 s while both connections stay up: no new 'ready' would come to try it again,
   * and the router would share nothing until the next disconnect.
   */
  async #resync(conn: FleetConnections): Promise<void> {
    clearTimeout(this.#resyncTimer);
    this.#resyncTimer = undefined;
    try {
      await this.#lease!.subscribe(this.#channel);
      const open = await conn.commands.hgetall(this.#breakersKey);
      for (const text of Object.values(open)) {
        const m = decodeBreakerMessage(text);
        if (!m) this.#ignore(`a value of the hash ${this.#breakersKey}`, text);
        else if (m.t === 'open' && m.id !== this.#id) this.#applyOpen(m, false);
      }
    } catch (error) {
      if (this.#conn !== conn) return;
      this.#fail(error);
      const timer = setTimeout(() => {
        if (this.#conn === conn && conn.commands.status === 'ready' && conn.subscriber.status === 'ready')
          void this.#resync(conn);
      }, RESYNC_RETRY_MS);
      timer.unref?.();
      this.#resyncTimer = timer;
      return;
    }
    if (this.#conn !== conn) return;
    this.#stats.state = 'ready';
    this.#d.onEvent({ type: 'connected' });
    const now = this.#d.clock.now();
    for (const b of this.#d.health.snapshot(now)) {
      if (
        b.state === 'open' &&
        b.reopenAt !== undefined &&
        b.openReason !== undefined &&
        b.openReason !== 'fleet' &&
        b.openReason !== 'auth'
      )
        this.#publishOpen(b.provider, b.capability, b.reopenAt, b.openReason, now);
    }
    this.#readSummaries();
  }

  #down(): void {
    if (this.#stats.state !== 'ready') return;
    this.#stats.state = 'down';
    this.#d.onEvent({ type: 'disconnected' });
  }

  #fail(error: unknown): void {
    this.#stats.errors++;
    const message = this.#redact(error instanceof Error ? error.message : String(error));
    const repeated = message === this.#stats.lastError;
    this.#stats.lastError = message;
    if (!repeated) this.#d.onEvent({ type: 'error', error: message });
  }

  // ---- breaker sharing ------------------------------------------------------------------

  #onLocalChange(change: HealthStateChange): void {
    const k = key(change.provider, change.capability);
    const s = this.#shared.get(k);
    if (change.from === 'half-open' && s?.held) this.#releaseLock(s);
    if (change.to === 'open' && change.reason === 'auth') {
      // This process's own credentials were refused: not the provider's health (see #applyOpen).
      clearTimeout(s?.unusedCheck);
      this.#shared.delete(k);
    } else if (change.to === 'open' && change.reason !== 'fleet' && change.reopenAt !== undefined) {
      this.#track(change.provider, change.capability, change.reopenAt);
      this.#publishOpen(change.provider, change.capability, change.reopenAt, change.reason);
    } else if (change.to === 'closed') {
      this.#shared.delete(k);
      const m: BreakerMessage = { v: 1, t: 'close', id: this.#id, p: change.provider, c: change.capability };
      const ok = this.#write((c) =>
        c.multi().hdel(this.#breakersKey, k).publish(this.#channel, encodeMessage(m)!).exec(),
      );
      if (ok) this.#stats.published++;
    }
  }

  #track(provider: string, capability: Capability, until: number): void {
    const k = key(provider, capability);
    const s = this.#shared.get(k);
    if (s && s.until >= until && !s.recovered) return;
    this.#shared.set(k, {
      provider,
      capability,
      until,
      recovered: false,
      probeUntil: undefined,
      held: false,
      unusedCheck: undefined,
      backoffUntil: undefined,
      lockTriedAt: undefined,
      locking: false,
    });
  }

  #publishOpen(
    provider: string,
    capability: Capability,
    reopenAt: number,
    reason: string,
    now = this.#d.clock.now(),
  ): void {
    // The end as a wall-clock time (for routers that read it from the store later) and the
    // cooldown left (for those that hear it now: it needs no clock agreement).
    const d = Math.round(reopenAt - now);
    const u = Math.round(this.#wallNow()) + d;
    const text = encodeMessage({
      v: 1,
      t: 'open',
      id: this.#id,
      p: provider,
      c: capability,
      u,
      r: reason,
      d,
    });
    if (!text) return;
    const ok = this.#write((c) =>
      c.multi().hset(this.#breakersKey, key(provider, capability), text).publish(this.#channel, text).exec(),
    );
    if (ok) this.#stats.published++;
  }

  #onMessage(text: string): void {
    const m = decodeBreakerMessage(text);
    if (!m) {
      this.#ignore(`a message on the channel ${this.#channel}`, text);
      return;
    }
    if (m.id === this.#id) return;
    this.#stats.received++;
    if (m.t === 'open') this.#applyOpen(m, true);
    else {
      const s = this.#shared.get(key(m.p, m.c));
      if (s) s.recovered = true;
    }
  }

  /**
   * Opens the local breaker of a peer's opening for the cooldown it has left: `d` for one heard
   * now (pub/sub delivers within milliseconds; a peer's clock, however wrong, does not move it),
   * the time to `u` for one read from the store (written earlier: it needs the clocks to agree,
   * and is never taken as longer than `d`), the time to `u` from a peer too old to send `d`.
   * Never longer than {@link MAX_PEER_OPEN_MS}.
   */
  #applyOpen(m: Extract<BreakerMessage, { t: 'open' }>, pushed: boolean): void {
    if (this.#d.serves && !this.#d.serves(m.p, m.c)) return;
    // An auth failure is about the peer's credentials (a wrong key in one pod, a canary, another
    // app on the prefix), not the provider's health: it is not shared (older peers send it).
    if (m.r === 'auth') return;
    const now = this.#d.clock.now();
    const toEnd = m.u - this.#wallNow();
    const left = m.d === undefined ? toEnd : pushed ? m.d : Math.min(toEnd, m.d);
    const ms = Math.min(left, MAX_PEER_OPEN_MS);
    if (!(ms > 0)) return;
    this.#track(m.p, m.c, now + ms);
    this.#d.health.openUntil(m.p, m.c, now + ms, 'fleet');
  }

  /**
   * Counts a message or stored value that could not be used, and says so: the first one to the
   * logger (or as a process warning), then at most one `'ignored'` event a second. `where` names
   * the channel or key; the text is never quoted (it could hold anything).
   */
  #ignore(where: string, text: string): void {
    this.#stats.ignored++;
    const v = foreignVersion(text);
    const why =
      v === undefined
        ? 'not a voxroute message of this version (malformed, or written by another app on this keyPrefix?)'
        : `written by another voxroute version (v: ${v})`;
    if (this.#stats.ignored === 1) warnFleetIgnored(`${where}: ${why}`, this.#d.logger);
    const now = this.#d.clock.now();
    if (now - this.#lastIgnoredEventAt >= 1_000) {
      this.#lastIgnoredEventAt = now;
      this.#d.onEvent({ type: 'ignored' });
    }
  }

  /**
   * Whether this process may probe the half-open breaker of (provider, capability) now, asked
   * synchronously by the breaker. Only a breaker whose opening the fleet shares is gated, and only
   * while the store is reachable: the lock is taken in the background and the answer is false
   * until it is (the call goes to another provider meanwhile, at no cost in latency). When the
   * store fails to answer for the lock (a command timed out: a hung or partitioned Redis keeps
   * its socket open, so the client still looks connected) or too many commands are pending,
   * this router probes alone for the lock's lifetime, as a router without a store would: else a
   * provider back from an outage would never be tried again for as long as the store hangs. A
   * lock won but not used for a probe within {@link UNUSED_LOCK_MS} is given back (see
   * {@link FleetHealth.#checkUsed}).
   */
  #gate(provider: string, capability: Capability): boolean {
    if (this.#stats.state !== 'ready') return true;
    const s = this.#shared.get(key(provider, capability));
    if (!s || s.recovered) return true;
    const now = this.#d.clock.now();
    if (s.probeUntil !== undefined && now < s.probeUntil) return true;
    s.probeUntil = undefined;
    s.held = false;
    if (s.backoffUntil !== undefined && now < s.backoffUntil) return false;
    if (!s.locking && (s.lockTriedAt === undefined || now - s.lockTriedAt >= LOCK_RETRY_MS))
      this.#takeLock(s, now);
    return false;
  }

  #takeLock(s: Shared, now: number): void {
    const ms = this.#d.timings?.probeLockMs ?? 10_000;
    // A margin of 10% so that this process stops probing before the lock can pass on.
    const lifetime = ms * 0.9;
    s.locking = true;
    s.lockTriedAt = now;
    const sent = this.#write(async (c) => {
      try {
        const won = await c.set(this.#lockKey(s), this.#id, 'PX', ms, 'NX');
        if (won === 'OK') {
          s.probeUntil = now + lifetime;
          s.held = true;
          this.#checkUsed(s);
        }
      } catch (error) {
        s.probeUntil = this.#d.clock.now() + lifetime;
        throw error;
      } finally {
        s.locking = false;
      }
    }, false);
    if (!sent) {
      s.locking = false;
      s.probeUntil = now + lifetime;
    }
  }

  /**
   * Releases the lock won for `s` if no probe has started {@link UNUSED_LOCK_MS} later, and keeps
   * this process from taking it again for {@link UNUSED_LOCK_BACKOFF_MS}, so that a process that
   * needs the provider gets it.
   */
  #checkUsed(s: Shared): void {
    clearTimeout(s.unusedCheck);
    const timer = setTimeout(() => {
      s.unusedCheck = undefined;
      if (!s.held || this.#shared.get(key(s.provider, s.capability)) !== s) return;
      const breaker = this.#d.health.peek(s.provider, s.capability);
      const now = this.#d.clock.now();
      if (breaker?.state(now) !== 'half-open' || breaker.snapshot(now).probeInFlight) return;
      this.#releaseLock(s);
      s.backoffUntil = now + UNUSED_LOCK_BACKOFF_MS;
    }, UNUSED_LOCK_MS);
    timer.unref?.();
    s.unusedCheck = timer;
  }

  #releaseLock(s: Shared): void {
    clearTimeout(s.unusedCheck);
    s.unusedCheck = undefined;
    s.probeUntil = undefined;
    s.held = false;
    this.#write((c) => c.eval(RELEASE_LOCK, 1, this.#lockKey(s), this.#id), false);
  }

  #lockKey(s: Shared): string {
    return `${this.#d.config.keyPrefix}probe:${key(s.provider, s.capability)}`;
  }

  // ---- latency summaries -----------------------------------------------------------------

  #writeSummaries(): void {
    if (this.#stats.state !== 'ready') return;
    const tracker = this.#d.tracker;
    const fields: string[] = [];
    const written: [string, number][] = [];
    for (const k of tracker.keys()) {
      const snap = tracker.snapshot(k);
      if (snap.samples === 0 || snap.ewmaMs === undefined || snap.lastUpdateMs === undefined) continue;
      if (this.#seeded.has(k) && snap.samples <= 1) continue;
      if (this.#published.get(k) === snap.lastUpdateMs) continue;
      const text = encodeMessage({
        v: 1,
        ewma: Math.round(snap.ewmaMs * 10) / 10,
        p95: snap.p95Ms ?? Math.round(snap.ewmaMs),
        n: snap.samples,
        at: this.#wallNow(),
      });
      if (!text) continue;
      fields.push(k, text);
      written.push([k, snap.lastUpdateMs]);
    }
    if (fields.length === 0) return;
    const sent = this.#write(
      (c) =>
        c
          .multi()
          .hset(this.#latencyKey, ...fields)
          .pexpire(this.#latencyKey, SUMMARY_MAX_AGE_MS)
          .exec(),
      false,
    );
    if (sent) for (const [k, at] of written) this.#published.set(k, at);
  }

  #readSummaries(): void {
    if (this.#stats.state !== 'ready') return;
    this.#write(async (c) => {
      const all = await c.hgetall(this.#latencyKey);
      const now = this.#d.clock.now();
      const wall = this.#wallNow();
      for (const [k, text] of Object.entries(all)) {
        const s = decodeLatencySummary(text);
        const [provider, capability, ...model] = k.split('\u0000');
        if (!s || model.length !== 1) {
          this.#ignore(`a field of the hash ${this.#latencyKey}`, text);
          continue;
        }
        if (wall - s.at > SUMMARY_MAX_AGE_MS) continue;
        if (this.#d.serves && !this.#d.serves(provider!, capability as Capability)) continue;
        // Local measurements stay authoritative: only a key never tried here is seeded.
        if (this.#d.tracker.lastTriedAt(k) !== undefined) continue;
        this.#d.tracker.recordSuccess(k, s.ewma, now, { coldStart: true });
        this.#seeded.add(k);
      }
    }, false);
  }

  // ---- bounded, fire-and-forget writes ----------------------------------------------------

  /**
   * Runs `command` against the store without anyone awaiting it. Dropped (counted, reported
   * at most once a second) when the store is not ready, too many commands are pending, or
   * (for `rated` writes: breaker messages) the publish rate is exceeded. Returns whether it ran.
   */
  #write(command: (c: FleetConnections['commands']) => Promise<unknown>, rated = true): boolean {
    const conn = this.#conn;
    if (!conn || this.#stats.state !== 'ready' || this.#pending >= MAX_PENDING || (rated && !this.#token())) {
      this.#stats.dropped++;
      const now = this.#d.clock.now();
      if (now - this.#lastDropEventAt >= 1_000) {
        this.#lastDropEventAt = now;
        this.#d.onEvent({ type: 'dropped' });
      }
      return false;
    }
    this.#pending++;
    command(conn.commands)
      .catch((error: unknown) => this.#fail(error))
      .finally(() => {
        this.#pending--;
      });
    return true;
  }

  #token(): boolean {
    const now = this.#d.clock.now();
    this.#tokens = Math.min(BUCKET_SIZE, this.#tokens + (now - this.#tokensAt) * BUCKET_RATE_PER_MS);
    this.#tokensAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens--;
    return true;
  }
}

/** The field and lock name of a (provider, capability): JSON, so no name can collide with another. */
function key(provider: string, capability: Capability): string {
  return JSON.stringify([provider, capability]);
}
