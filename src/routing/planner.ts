import type { ResolvedConfig, ResolvedRouteConfig } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { RequestError } from '../errors/request-error.js';
import { ownValue } from '../internal/own.js';
import type { ProviderAdapter } from '../providers/types.js';
import type { Deadlines } from '../transport/types.js';
import type { CallOptions } from '../types/requests.js';
import type { Capability } from '../types/route-result.js';
import { startAfterLoad } from './after-load.js';
import { budgetDrain } from './balance-price.js';
import { type CapabilityCall, sectionOf } from './capability.js';
import { firstChunkDeadlineMs } from './deadlines.js';
import type { HealthRegistry } from './health/index.js';
import { HedgeBudgets } from './hedge.js';
import { budgetShareCap, planRoute } from './hedge-delay.js';
import { LatencyTracker } from './latency-tracker.js';
import type { RouteCandidate, RouteRun } from './route-run.js';
import type { ProviderStats } from './router-types.js';
import { orderCandidates } from './select.js';
import { warmUpHedgeMs } from './warm-up-hedge.js';

/** The order of a route with one candidate. */
const ONE: readonly number[] = [0];

/** The parts of a {@link RouteRun} that every call of a router shares. */
export type SharedRunParts = Pick<
  RouteRun<unknown>,
  'closeSignal' | 'transport' | 'webSocket' | 'clock' | 'tracker' | 'emitter' | 'tracing' | 'redact'
>;

/**
 * Turns one capability call into a {@link RouteRun}: the route of the config, the providers of
 * that route that can serve the call (the capability says how), their deadlines, circuit
 * breakers and hedge delays, in the order the route's strategy picks. Keeps which
 * (provider, capability, model) were tried, for {@link RoutePlanner.stats}.
 */
export class RoutePlanner {
  readonly #config: ResolvedConfig;
  readonly #adapters: ReadonlyMap<string, ProviderAdapter>;
  readonly #shared: SharedRunParts;
  readonly #health: HealthRegistry;
  readonly #random: (() => number) | undefined;
  readonly #hedgeBudgets = new HedgeBudgets();
  readonly #seen = new Map<string, { provider: string; capability: Capability; model: string }>();
  /** Tracker keys by provider, capability and model (see {@link #keyOf}). */
  readonly #keys = new Map<string, Map<Capability, Map<string, string>>>();
  readonly #deadlines = new WeakMap<ResolvedRouteConfig, Deadlines>();

  constructor(
    config: ResolvedConfig,
    adapters: ReadonlyMap<string, ProviderAdapter>,
    shared: SharedRunParts,
    health: HealthRegistry,
    random: (() => number) | undefined,
  ) {
    this.#config = config;
    this.#adapters = adapters;
    this.#shared = shared;
    this.#health = health;
    this.#random = random;
  }

  /** The run of `call`: its ordered candidates, or why it has none (`noCandidate`). */
  plan<T, C extends Capability>(call: CapabilityCall<T, C>, request: CallOptions): RouteRun<T> {
    const capability = call.capability;
    const routeName = request.route ?? capability;
    const { tracker, clock } = this.#shared;
    const route = this.#routeOf(routeName, capability);
    if (typeof route === 'string') {
      return {
        ...this.#shared,
        capability,
        route: routeName,
        candidates: [],
        signal: request.signal,
        noCandidate: this.#routeError(routeName, capability, route, request.route !== undefined, 'route'),
        release: call.release,
      };
    }
    const built: RouteCandidate<T>[] = [];
    /** Per built candidate: the route's own first-chunk deadline, in ms (0: none). */
    const routeFirstChunkMs: number[] = [];
    const missing: ConfigIssue[] = [];
    for (const name of route.providers) {
      const adapter = this.#adapters.get(name);
      const provider = ownValue(this.#config.providers, name);
      if (!adapter || !provider) continue;
      const port = adapter[capability];
      const section = sectionOf(provider)[capability];
      const offered = port && section ? call.candidate(name, port, section) : `no ${capability} capability`;
      if (typeof offered === 'string') {
        missing.push({ path: ['providers', name, capability], message: offered });
        continue;
      }
      // The adapter's code still loading (e.g. the AWS SDK): the attempt's clock starts after it.
      const loading = adapter.ready?.();
      const made = loading ? startAfterLoad(loading, offered) : offered;
      const key = this.#keyOf(name, capability, made.model);
      const snap = tracker.tail(key);
      const own =
        made.answersOnPause && route.firstChunkTimeoutMs === 'auto'
          ? 0
          : firstChunkDeadlineMs(route.firstChunkTimeoutMs, snap);
      routeFirstChunkMs.push(own);
      const callFirstChunkMs = request.firstChunkTimeoutMs;
      // One literal with every field: the same shape for every candidate.
      built.push({
        provider: name,
        model: made.model,
        key,
        firstChunkMs: callFirstChunkMs ?? own,
        // The caller's deadline is shorter than the route's own (or the route has none): its
        // passing is the caller's hurry, not the provider's fault.
        firstChunkByCaller:
          callFirstChunkMs !== undefined && callFirstChunkMs > 0 && (own === 0 || callFirstChunkMs < own),
        deadlines: this.#deadlinesOf(route),
        start: made.start,
        inputEnded: made.inputEnded,
        startsClock: made.startsClock === true,
        answersOnPause: made.answersOnPause === true,
        health: this.#health.get(name, capability),
        hedgeAfterMs: undefined,
        takesOver: made.takesOver !== false,
      });
    }
    // The objective and hedge delay of each candidate from its learned distribution
    // (hedge-delay.ts). With the budget empty no hedge can be counted on: the plan is unhedged;
    // an `auto` hedge may take the share of calls the budget's level sustains.
    // One candidate, no hedging, an order that draws nothing: the objective and hedge delay
    // would decide nothing, so they are not computed (the breaker is still asked, as planRoute
    // would: asking may move it from open to half-open; and no hedge delay is noted).
    if (built.length === 1 && !route.hedge && route.strategy !== 'weighted') {
      built[0]!.health?.allows();
      tracker.noteHedgeDelay(built[0]!.key, undefined);
      if (request.firstChunkTimeoutMs !== undefined) spareLast(built, ONE, routeFirstChunkMs);
      return this.#run(call, request, route, routeName, built, missing, ONE);
    }
    const budget = route.hedge ? this.#hedgeBudgets.of(routeName, route.hedge.maxShare) : undefined;
    // A hedge delay learned from a provider's samples means nothing for one that answers when the
    // speaker pauses (streaming STT): its first transcript comes after the user's speech, however
    // long, so such a delay would hedge every long utterance. Only a fixed delay applies to it
    // (the route's number or the call's hedgeAfterMs), as for the 'auto' first-chunk deadline;
    // its objective counts its tail unhedged (`unhedged`), as it runs.
    const learnedHedge =
      route.hedge !== false && route.hedge !== undefined && typeof route.hedge.after !== 'number';
    const planned = planRoute(
      tracker,
      built.map((c) => ({
        key: c.key,
        healthy: c.health?.allows() ?? true,
        unhedged: learnedHedge && c.answersOnPause === true,
      })),
      route.hedge && budget?.available() ? route.hedge : undefined,
      clock.now(),
      route.hedge && budget ? budgetShareCap(route.hedge.maxShare, budget.tokens()) : 0,
      // A token in hand: the first choice hedges its tail at the knee, whatever its share.
      1,
      budget ? budgetDrain(budget.tokens()) : 0,
      // The balance price (balance-price.ts): the ledger's balance against its target.
      budget && route.hedge ? { tokens: budget.tokens(), maxShare: route.hedge.maxShare } : undefined,
    );
    // A per-call hedgeAfterMs (e.g. from a voice turn's budget) overrides the planned delay.
    // A provider measured only by its first call hedges at twice that upper bound while a
    // token is in hand (warm-up-hedge.ts): its warm call is then a stall.
    const warmUp = route.hedge && route.hedge.after === 'auto' && budget?.available() === true;
    for (let i = 0; i < built.length; i++) {
      const c = built[i]!;
      if (learnedHedge && c.answersOnPause) {
        c.hedgeAfterMs = request.hedgeAfterMs;
        tracker.noteHedgeDelay(c.key, c.hedgeAfterMs);
        continue;
      }
      c.hedgeAfterMs = route.hedge ? (request.hedgeAfterMs ?? planned[i]!.hedgeAfterMs) : undefined;
      if (warmUp && c.hedgeAfterMs === undefined) {
        c.hedgeAfterMs = warmUpHedgeMs(tracker.coldBound(c.key));
        if (c.hedgeAfterMs !== undefined) tracker.noteHedgeDelay(c.key, c.hedgeAfterMs);
      }
    }
    // One candidate has one order (weighted draws its random number even so: the same
    // sequence of draws as before for a seeded random).
    let order =
      built.length === 1 && route.strategy !== 'weighted'
        ? ONE
        : orderCandidates(
            built.map((c, index) => {
              const cold = planned[index]!.objectiveMs === undefined ? tracker.coldBound(c.key) : undefined;
              return {
                index,
                // A key measured only by its cold first call ranks by that upper bound meanwhile
                // (or by a longer wait a caller's deadline cut since: it took at least that),
                // unless its latest outcome is a failure: a failure does not move a latency bound,
                // so it ranks as unmeasured then (after every provider that answered).
                scoreMs:
                  planned[index]!.objectiveMs ??
                  (cold && !cold.failed ? Math.max(cold.ms, tracker.lowerBound(c.key) ?? 0) : undefined),
                retrySoon: cold?.retry ?? false,
                lastTriedAt: tracker.lastTriedAt(c.key),
                inFlight: tracker.inFlightOf(c.key),
                healthy: c.health?.allows() ?? true,
                // Own entries only: a provider named `constructor` has no inherited weight.
                weight: ownValue(route.weights, c.provider) ?? 1,
                cost: ownValue(route.costs, c.provider) ?? 0,
              };
            }),
            {
              strategy: route.strategy,
              now: clock.now(),
              probeAfterMs: route.probeAfterMs,
              costLatencyFactor: route.costLatencyFactor,
              inFlightWeight: route.inFlightWeight,
              random: this.#random,
            },
          );
    // The hedge goes to the backup the first choice's plan counted on (the cheapest backup, an
    // outage's provider not), whatever its own rank as a first choice.
    if (route.strategy === 'latency' && order.length > 2) {
      const backup = planned[order[0]!]!.backupIndex;
      const at = backup === undefined ? -1 : order.indexOf(backup);
      if (at > 1) order = [order[0]!, backup!, ...order.slice(1).filter((i) => i !== backup)];
    }
    if (request.firstChunkTimeoutMs !== undefined) spareLast(built, order, routeFirstChunkMs);
    return this.#run(call, request, route, routeName, built, missing, order);
  }

  /**
   * Whether `call` would find a provider on its route, without planning it (no breaker is
   * asked, nothing is recorded): the error it would end with before contacting any provider
   * (see {@link #noCandidate}), or undefined. `routeField` names the request field that gave
   * `route` in a RequestError (voiceTurn's `routes.tts`).
   */
  check<T, C extends Capability>(
    call: CapabilityCall<T, C>,
    route: string | undefined,
    routeField = 'route',
  ): ConfigError | RequestError | undefined {
    const capability = call.capability;
    const routeName = route ?? capability;
    const resolved = this.#routeOf(routeName, capability);
    if (typeof resolved === 'string')
      return this.#routeError(routeName, capability, resolved, route !== undefined, routeField);
    const missing: ConfigIssue[] = [];
    for (const name of resolved.providers) {
      const adapter = this.#adapters.get(name);
      const provider = ownValue(this.#config.providers, name);
      if (!adapter || !provider) continue;
      const port = adapter[capability];
      const section = sectionOf(provider)[capability];
      const made = port && section ? call.candidate(name, port, section) : `no ${capability} capability`;
      if (typeof made !== 'string') return undefined;
      missing.push({ path: ['providers', name, capability], message: made });
    }
    return missing.length ? this.#noCandidate(call, resolved, missing) : undefined;
  }

  /**
   * Why no provider of `route` can serve `call` (each provider's reason in `missing`): the
   * caller's voice or model is one no provider of the route maps, a RequestError naming the
   * field and listing the names the route's providers map (e.g. `no voice 'nope' on route
   * 'tts'; its voices: agent, narrator`); else (no provider of the route has the capability,
   * which the config's checks rule out) a ConfigError naming each provider's gap.
   */
  #noCandidate<T, C extends Capability>(
    call: CapabilityCall<T, C>,
    route: ResolvedRouteConfig,
    missing: ConfigIssue[],
  ): ConfigError | RequestError {
    const mapped = call.mapped;
    if (!mapped) return new ConfigError(missing);
    const known = new Set<string>();
    let capable = false;
    for (const name of route.providers) {
      const provider = ownValue(this.#config.providers, name);
      const section =
        provider && this.#adapters.get(name)?.[call.capability] && sectionOf(provider)[call.capability];
      if (!section) continue;
      capable = true;
      for (const n of mapped.known(section)) known.add(n);
    }
    if (!capable) return new ConfigError(missing);
    return new RequestError(
      mapped.field,
      `no ${mapped.field} ${quoted(mapped.name)} on route '${route.name}'; its ${mapped.field}s: ${listed([...known])}`,
    );
  }

  /**
   * The error of a call whose route `name` does not exist or serves another capability
   * (`problem`): a RequestError at `field` when the caller named the route (`named`), listing
   * the routes of the capability; a ConfigError at `routes.<name>` when the call took its
   * capability's default route, which the config lacks.
   */
  #routeError(
    name: string,
    capability: Capability,
    problem: string,
    named: boolean,
    field: string,
  ): ConfigError | RequestError {
    const fitting = Object.values(this.#config.routes)
      .filter((r) => r.capability === capability)
      .map((r) => r.name);
    if (!named) {
      // The capability's default route is missing: say which routes could serve the call.
      const hint = fitting.length
        ? `; name one of its ${capability} routes in the call's \`route\` (${listed(fitting)}), or add a route named '${name}'`
        : `; the config has no ${capability} route`;
      return new ConfigError([{ path: ['routes', name], message: `${problem}${hint}` }]);
    }
    return new RequestError(
      field,
      `${problem}; ${fitting.length ? `${capability} routes: ${listed(fitting)}` : `the config has no ${capability} route`}`,
    );
  }

  /** The run of a planned call: its candidates in `order`. */
  #run<T, C extends Capability>(
    call: CapabilityCall<T, C>,
    request: CallOptions,
    route: ResolvedRouteConfig,
    routeName: string,
    built: RouteCandidate<T>[],
    missing: ConfigIssue[],
    order: readonly number[],
  ): RouteRun<T> {
    const capability = call.capability;
    // One literal with every field (undefined where unset): the same shape for every call.
    const shared = this.#shared;
    return {
      capability,
      route: routeName,
      candidates: order === ONE ? built : order.map((i) => built[i]!),
      // No provider of the route maps the request's voice or model: the request is wrong, not a
      // provider (a RequestError naming the field and the names the route knows).
      noCandidate: missing.length && built.length === 0 ? this.#noCandidate(call, route, missing) : undefined,
      signal: request.signal,
      closeSignal: shared.closeSignal,
      transport: shared.transport,
      webSocket: shared.webSocket,
      clock: shared.clock,
      tracker: shared.tracker,
      emitter: shared.emitter,
      tracing: shared.tracing,
      redact: shared.redact,
      deadlineMs: request.deadlineMs ?? route.totalTimeoutMs,
      deadlineSetting: request.deadlineMs !== undefined ? 'deadlineMs' : 'totalTimeoutMs',
      hedgeBudget: route.hedge ? this.#hedgeBudgets.earn(routeName, route.hedge.maxShare) : undefined,
      ewmaDecayMs: route.ewmaDecayMs,
      resumable: route.midStream !== 'error',
      canResume: call.canResume,
      toolCalls: call.toolCalls,
      complete: call.complete,
      isEmpty: call.isEmpty,
      markResumed: call.markResumed,
      textOf: call.textOf,
      onDelivered: call.onDelivered,
      callerError: call.callerError,
      release: call.release,
      joinText: call.joinText,
      position: call.position,
      latencyOf: call.latencyOf,
      waitedOf: call.waitedOf,
    };
  }

  /** Measurements of every (provider, capability, model) planned so far and tried at least once. */
  stats(): ProviderStats[] {
    const providers: ProviderStats[] = [];
    const { tracker } = this.#shared;
    for (const [key, who] of this.#seen) {
      const snap = tracker.snapshot(key);
      if (snap.attempts === 0 && snap.samples === 0 && snap.errors === 0) continue;
      const breaker = this.#health.peek(who.provider, who.capability)?.snapshot();
      providers.push({
        ...who,
        ...snap,
        breaker: breaker?.state ?? 'closed',
        breakerReopenAtMs: breaker?.reopenAt,
        misconfigured: breaker?.misconfigured ?? false,
      });
    }
    return providers;
  }

  /**
   * The tracker key of (provider, capability, model), built once per triple (a key built per
   * call would be a new string to hash on every lookup); notes the triple for {@link stats}.
   */
  #keyOf(provider: string, capability: Capability, model: string | undefined): string {
    let byCapability = this.#keys.get(provider);
    if (!byCapability) {
      byCapability = new Map();
      this.#keys.set(provider, byCapability);
    }
    let byModel = byCapability.get(capability);
    if (!byModel) {
      byModel = new Map();
      byCapability.set(capability, byModel);
    }
    const m = model ?? '';
    let key = byModel.get(m);
    if (key === undefined) {
      key = LatencyTracker.key(provider, capability, model);
      byModel.set(m, key);
      if (!this.#seen.has(key)) this.#seen.set(key, { provider, capability, model: m });
    }
    return key;
  }

  /** The transport deadlines of a route's attempts: one frozen object per route. */
  #deadlinesOf(route: ResolvedRouteConfig): Deadlines {
    let deadlines = this.#deadlines.get(route);
    if (!deadlines) {
      deadlines = Object.freeze({ connectMs: route.connectTimeoutMs, idleMs: route.idleTimeoutMs });
      this.#deadlines.set(route, deadlines);
    }
    return deadlines;
  }

  #routeOf(name: string, capability: Capability): ResolvedRouteConfig | string {
    const route = ownValue(this.#config.routes, name);
    if (!route) return `no route named ${quoted(name)} in the config`;
    if (route.capability !== capability)
      return `route '${name}' is a ${route.capability} route, not ${capability}`;
    return route;
  }
}

/**
 * A per-call first-chunk deadline (a voice turn's budget) shortens the attempts that have a
 * fallback behind them; the last candidate in `order` keeps at least the route's own
 * (`routeFirstChunkMs`, 0: none): a tight budget makes a call fall back sooner, never turns a
 * late answer into none.
 */
function spareLast<T>(
  built: RouteCandidate<T>[],
  order: readonly number[],
  routeFirstChunkMs: number[],
): void {
  if (order.length === 0) return;
  const at = order[order.length - 1]!;
  const last = built[at]!;
  const own = routeFirstChunkMs[at]!;
  last.firstChunkMs = own === 0 || last.firstChunkMs === 0 ? 0 : Math.max(own, last.firstChunkMs);
  // The last candidate waits at least the route's own deadline (or none): its passing is charged.
  last.firstChunkByCaller = false;
}

/** A caller's name for a message: quoted, cut at 64 characters. */
function quoted(name: string): string {
  return `'${name.length > 64 ? `${name.slice(0, 64)}...` : name}'`;
}

/** Names for a message: the first 20, comma-separated, then how many more. */
function listed(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${shown} and ${names.length - 20} more` : shown;
}
