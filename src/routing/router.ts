import { setMaxListeners } from 'node:events';
import { preloadResampler } from '../audio/index.js';
import { ResampleOffload } from '../audio/resample-offload.js';
import { isCapability } from '../config/capability.js';
import type { ResolvedConfig, RouterConfig } from '../config/index.js';
import { parseConfig } from '../config/index.js';
import { collectConfigIds, collectSecretLiterals } from '../config/redact.js';
import { createErrorRedactor } from '../errors/redact.js';
import { redactedCopy } from '../errors/redacted-copy.js';
import { lazyFleet } from '../fleet/lazy-fleet.js';
import { systemClock } from '../internal/clock.js';
import { monotonicClock } from '../internal/monotonic-clock.js';
import { createAdapter } from '../providers/create-adapter.js';
import type { ProviderAdapter } from '../providers/types.js';
import { createTracing } from '../telemetry/tracing.js';
import { preloadTextRules } from '../text/clause-splitter.js';
import { caEntries } from '../transport/ca-certificates.js';
import { lazyTransports } from '../transport/lazy-transports.js';
import { VERSION } from '../version.js';
import type { CallContext } from './capability.js';
import { chatCall } from './chat.js';
import { CLOSE_SIGNAL, routerClosed } from './close-signal.js';
import { RouterEmitter } from './events.js';
import { HealthRegistry } from './health/index.js';
import { LatencyTracker } from './latency-tracker.js';
import { loadDeferredCode } from './load-deferred-code.js';
import { RoutePlanner, type SharedRunParts } from './planner.js';
import { PREFLIGHT, type Preflight } from './preflight.js';
import { rejectedStream } from './rejected-stream.js';
import { routedStream } from './routed-stream.js';
import { routerLogger } from './router-logger.js';
import { checkRouterOptions } from './router-options.js';
import type { Router, RouterOptions } from './router-types.js';
import { sttCall } from './stt.js';
import { ttsCall } from './tts.js';
import { chatRequestProblem, sttRequestProblem, ttsRequestProblem } from './validate-request.js';
import { warnOnFetchBypass } from './websocket-bypass-warning.js';

export type { Logger, ProviderStats, Router, RouterOptions, RouterStats } from './router-types.js';
export { DEFAULT_TTS_FORMAT } from './tts.js';

/**
 * Creates a router over the providers and routes of `config` (validated again here, so a
 * literal `defineConfig({...})` works as well as `loadConfig()`'s result).
 * @throws ConfigError when the config is invalid (every bad field with its path), or is a
 *   Promise (`loadConfig` not awaited).
 * @throws TypeError when `options` is not an object or has a key RouterOptions does not have
 *   (named, with a did-you-mean: `fetchh` -> `fetch`), or when `options.logger` or
 *   `options.ca` has the wrong shape (named).
 */
export function createRouter(config: RouterConfig | ResolvedConfig, options: RouterOptions = {}): Router {
  checkRouterOptions(options);
  const resolved = parseConfig(config, options.env ? { env: options.env } : {});
  // A caller's clock that steps back (NTP, a test clock) must not make a latency, a hedge delay
  // or a score negative or NaN: every part of the router reads it through one monotonic wrapper.
  const callerClock = options.clock ? monotonicClock(options.clock) : undefined;
  const clock = callerClock ?? systemClock;
  // Checked (TypeError naming `logger`) and isolated: a logger that throws changes nothing.
  const logger = routerLogger(options.logger);
  // Checked here (TypeError naming `ca`), not at the first https call charged to a provider.
  const ca = options.ca !== undefined ? { ca: caEntries(options.ca, 'createRouter: options.ca') } : {};
  // The transports' code loads with the adapters' (deferred-code.ts), in the background: until
  // then stand-ins wait for it; once built, they replace the stand-ins where calls read them.
  // The longest connect deadline of the routes. The HTTP agent's and the WebSocket connector's
  // own connect timeouts (10 s by default) stay behind it, as backstops: a route's longer
  // connectTimeoutMs is the one that applies.
  const connectMs = Math.max(0, ...Object.values(resolved.routes).map((r) => r.connectTimeoutMs));
  const clientConnect = { connectTimeoutMs: Math.max(10_000, connectMs + 1_000) };
  const { http: transport, webSocket } = lazyTransports(
    async () => {
      const code = await loadDeferredCode();
      const http = code.createHttpTransport({
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...ca,
        ...clientConnect,
        clock,
      });
      const ownWebSocket = code.createWebSocketTransport({
        ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
        ...ca,
        ...clientConnect,
        clock,
      });
      // A `fetch` of the caller's (msw, a proxy) does not carry WebSocket connections: say so once.
      const ws = options.fetch && !options.WebSocket ? warnOnFetchBypass(ownWebSocket, logger) : ownWebSocket;
      return { http, webSocket: ws };
    },
    (built) => {
      shared.transport = built.http;
      shared.webSocket = built.webSocket;
    },
  );
  const closing = new AbortController();
  // Running calls share one listener on the router's close signal (routing/call-scope.ts), but
  // adapters and streamed inputs may add one each while they run: many are normal, not a leak.
  /** The router's close signal, read once: a call checks it without asking the controller again. */
  const closed = closing.signal;
  setMaxListeners(0, closed);
  const adapters = new Map<string, ProviderAdapter>();
  // Each adapter's code loads in the background (providers/lazy-adapter.ts); once built, the
  // adapter takes its stand-in's place, so calls planned from then on reach it directly.
  for (const [name, provider] of Object.entries(resolved.providers))
    adapters.set(
      name,
      createAdapter(name, provider, {
        load: loadDeferredCode,
        clock: callerClock,
        loaded: (adapter) => adapters.set(name, adapter),
      }),
    );
  // One tracker for the router: a provider's latency is a fact about the provider, whichever
  // route measured it. (Per-route decay times come with the scoring work of a later issue.)
  const tracker = new LatencyTracker();
  // The listener's error is the caller's own: reported with no secret in it, left unchanged.
  const emitter = new RouterEmitter((error) =>
    logger?.warn('A router event listener threw', { error: redactedCopy(String(error), redact) }),
  );
  const tracing = createTracing(VERSION);
  /** The circuit breakers of (provider, capability). */
  const health = new HealthRegistry({ clock, ...(options.random ? { random: options.random } : {}) });
  health.onStateChange((change) =>
    emitter.emit('breaker', {
      provider: change.provider,
      capability: change.capability,
      from: change.from,
      to: change.to,
      reason: change.reason,
      ...(change.reopenAt !== undefined ? { reopenAtMs: change.reopenAt } : {}),
    }),
  );
  // Its code loads with the adapters', before any call can change a breaker (fleet/lazy-fleet.ts).
  const fleet = resolved.health
    ? lazyFleet(async () => (await loadDeferredCode()).FleetHealth, {
        config: resolved.health,
        health,
        tracker,
        clock,
        onEvent: (e) => emitter.emit('fleet', e),
        logger,
        // Names come from the store: own keys only (a '__proto__' or 'constructor' is no provider).
        serves: (provider, capability) => {
          const section = Object.hasOwn(resolved.providers, provider)
            ? (resolved.providers[provider] as Record<string, unknown>)
            : undefined;
          return (
            isCapability(capability) &&
            section !== undefined &&
            Object.hasOwn(section, capability) &&
            section[capability] !== undefined
          );
        },
      })
    : undefined;
  // Every configured secret (API keys, headers, AWS credentials) leaves every provider error,
  // and every error of the caller's own input that a RequestError quotes; provider and route
  // names stay readable even when one is the start of a secret.
  const redact = createErrorRedactor(
    collectSecretLiterals(resolved),
    [...Object.keys(resolved.providers), ...Object.keys(resolved.routes)],
    collectConfigIds(resolved),
  );
  const shared: SharedRunParts = {
    closeSignal: closing.signal,
    transport,
    // The router's own WebSocket transport (with the caller's constructor, if any) serves every
    // WebSocket adapter, so that close() closes every socket they opened (warm pools too).
    webSocket,
    clock,
    tracker,
    emitter,
    tracing,
    // Every configured secret (API keys, headers, AWS credentials) leaves every provider error;
    // provider and route names stay readable even when one is the start of a secret.
    redact,
  };
  const planner = new RoutePlanner(resolved, adapters, shared, health, options.random);
  // No thread here: the first stream that resamples above the threshold starts it.
  const resampling = new ResampleOffload(
    async () => new (await loadDeferredCode()).ResampleThread(),
    options.resampleOffload,
    (message, attributes) => logger?.warn(message, attributes),
  );
  const context: CallContext = { closeSignal: closing.signal, logger, resampling, redact, clock };
  /** voiceTurn()'s check of each stage before the first one starts (routing/preflight.ts). */
  const preflight: Preflight = (c) =>
    c.capability === 'tts'
      ? planner.check(ttsCall(c.request, context), c.request.route, c.routeField)
      : c.capability === 'chat'
        ? planner.check(chatCall(c.request), c.request.route, c.routeField)
        : planner.check(sttCall(c.request, context), c.request.route, c.routeField);

  const router: Router & { [PREFLIGHT]: Preflight; [CLOSE_SIGNAL]: AbortSignal } = {
    [PREFLIGHT]: preflight,
    [CLOSE_SIGNAL]: closing.signal,
    // A bad request fails before any provider is contacted (RequestError naming the field).
    // A closed router ends every call with AbortError, whatever else is wrong with the request:
    // one precedence, whatever the call.
    tts(request) {
      if (closed.aborted) return rejectedStream(routerClosed());
      const bad = ttsRequestProblem(request);
      return bad ? rejectedStream(bad) : routedStream(planner.plan(ttsCall(request, context), request));
    },
    stt(request) {
      if (closed.aborted) return rejectedStream(routerClosed());
      const bad = sttRequestProblem(request);
      return bad ? rejectedStream(bad) : routedStream(planner.plan(sttCall(request, context), request));
    },
    chat(request) {
      if (closed.aborted) return rejectedStream(routerClosed());
      const bad = chatRequestProblem(request);
      return bad ? rejectedStream(bad) : routedStream(planner.plan(chatCall(request), request));
    },

    async warmup() {
      const origins = new Set<string>();
      for (const provider of Object.values(resolved.providers)) {
        if ('baseUrl' in provider && typeof provider.baseUrl === 'string')
          origins.add(new URL(provider.baseUrl).origin);
      }
      // An origin is given up at the routes' connect deadline (the longest of them), not after
      // a 10 s warmup exchange: one that cannot be reached, and one that takes the connection
      // but never answers (the whole exchange, connection and answer, has that time; a fetch
      // wire cannot see the connect phase alone). router.close() ends a warmup in progress.
      const preconnect = {
        signal: closing.signal,
        ...(connectMs > 0 ? { connectMs, timeoutMs: connectMs } : {}),
      };
      // The first sentence split of a process loads the runtime's break rules (15 to 20 ms).
      preloadTextRules();
      await Promise.all([
        ...[...origins].map((o) => transport.preconnect?.(o, preconnect).catch(() => {})),
        // The resampler's wasm module takes ~40 ms to load the first time: not on a caller's turn.
        preloadResampler().catch(() => {}),
        // Each provider's adapter code (and SageMaker's SDK): not on a caller's first call.
        ...[...adapters.values()].map((a) => a.ready?.()),
        tracing.ready,
        fleet?.ready,
      ]);
    },

    stats: () => ({ providers: planner.stats(), ...(fleet ? { fleet: fleet.stats() } : {}) }),

    on: (event, listener) => emitter.on(event, listener),

    async close() {
      closing.abort();
      await Promise.all([
        transport.close(),
        webSocket.close?.(),
        fleet?.close(),
        resampling.close(),
        ...[...adapters.values()].map((a) => a.close?.().catch(() => {})),
      ]);
    },
  };
  return router;
}
