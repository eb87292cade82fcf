import { setMaxListeners } from 'node:events';
import { bytesPerFrame, durationMs, sameFormat } from '../audio/format.js';
import { createAudioConverter, preloadResampler, SampleFramer } from '../audio/index.js';
import type {
  ResolvedConfig,
  ResolvedProviderConfig,
  ResolvedRouteConfig,
  RouterConfig,
} from '../config/index.js';
import { parseConfig } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { type Clock, systemClock } from '../internal/clock.js';
import { createAdapter } from '../providers/create-adapter.js';
import type { AttemptContext, ProviderAdapter, ProviderAudio, WordTiming } from '../providers/types.js';
import { createTracing } from '../telemetry/tracing.js';
import { createHttpTransport, createWebSocketTransport } from '../transport/index.js';
import type { HttpTransport } from '../transport/types.js';
import type { AudioChunk, AudioFormat } from '../types/audio.js';
import type { ChatEvent } from '../types/chat.js';
import type { CallOptions, ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import type { Capability, RoutedStream } from '../types/route-result.js';
import type { TranscriptEvent } from '../types/transcript.js';
import { VERSION } from '../version.js';
import { type CandidateHealth, type RouteCandidate, type RouteRun, routedStream } from './attempt-loop.js';
import { firstChunkDeadlineMs } from './deadlines.js';
import { RouterEmitter, type RouterEventName, type RouterListener } from './events.js';
import { HealthRegistry } from './health/index.js';
import { createHedgeBudget, type HedgeBudget, planRoute } from './hedge-delay.js';
import { type LatencySnapshot, LatencyTracker } from './latency-tracker.js';
import { ReplayableAudio } from './replayable-audio.js';
import { remainingText } from './resume-text.js';
import { orderCandidates } from './select.js';
import { type SentenceCut, TtsProgress } from './tts-progress.js';
import { pickNativeFormat, toCallerAudio } from './tts-stream.js';

/** Where the router reports what the caller should know but that is not an error. */
export interface Logger {
  warn(message: string, attributes?: Record<string, unknown>): void;
  debug?(message: string, attributes?: Record<string, unknown>): void;
}

/** Options of {@link createRouter}. */
export interface RouterOptions {
  /**
   * A fetch to send HTTP with instead of undici's `request` on the router's tuned Agent
   * (e.g. `globalThis.fetch`, so msw can intercept it). Default: undici `request`.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * A WebSocket constructor for WebSocket providers instead of undici's (e.g. `globalThis.WebSocket`,
   * so msw's `ws` API can intercept it). A standard constructor cannot send handshake headers,
   * so adapters then authenticate the way the provider allows without them. Default: undici's.
   */
  WebSocket?: typeof globalThis.WebSocket;
  /** Monotonic clock and timers for every deadline and measurement. Default: performance.now(). */
  clock?: Clock;
  /** Receives warnings (e.g. a stray half sample dropped at the end of a stream). Default: none. */
  logger?: Logger;
  /** Uniform random numbers in [0, 1) for power of two choices and weighted draws. Default: Math.random. */
  random?: () => number;
  /** Environment for `{ env: NAME }` secrets when the config is not resolved yet. Default: process.env. */
  env?: Record<string, string | undefined>;
}

/** Measurements of one (provider, capability, model), as {@link Router.stats} reports them. */
export interface ProviderStats extends LatencySnapshot {
  provider: string;
  capability: Capability;
  /** Provider-side model or voice id. */
  model: string;
  /** State of the (provider, capability) circuit breaker. */
  breaker: 'closed' | 'open' | 'half-open';
  /** While open: when the breaker lets a probe through again, monotonic ms. */
  breakerReopenAtMs: number | undefined;
  /** True when the provider refused our credentials (401, 403, WebSocket 1008). */
  misconfigured: boolean;
}

/** Snapshot of the router's measurements. */
export interface RouterStats {
  /** One entry per (provider, capability, model) that was tried at least once. */
  providers: ProviderStats[];
}

/** The voxroute router: see {@link createRouter}. */
export interface Router {
  /** Text to speech: audio chunks in `request.format` (default PCM s16le 24 000 Hz mono). */
  tts(request: TtsRequest): RoutedStream<AudioChunk>;
  /** Speech to text: partial (when `interim`) and final transcripts; ends after the last final. */
  stt(request: SttRequest): RoutedStream<TranscriptEvent>;
  /** Chat: text deltas, tool calls, then one finish event. */
  chat(request: ChatRequest): RoutedStream<ChatEvent>;
  /**
   * Opens connections (keep-alive) to every provider's origin and loads the resampler ahead of
   * the first call, so no caller pays for a cold start. Never throws.
   */
  warmup(): Promise<void>;
  /** Latency, error and in-flight figures per (provider, capability, model). */
  stats(): RouterStats;
  /** Listens to `'attempt'`, `'first-chunk'`, `'fallback'` or `'error'`; returns an unsubscribe function. */
  on<E extends RouterEventName>(event: E, listener: RouterListener<E>): () => void;
  /** Closes every connection; streams still running end with an AbortError. */
  close(): Promise<void>;
}

/** Default TTS output format: PCM s16le, 24 000 Hz, mono. */
export const DEFAULT_TTS_FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 };

/**
 * Creates a router over the providers and routes of `config` (validated again here, so a
 * literal `defineConfig({...})` works as well as `loadConfig()`'s result).
 * @throws ConfigError when the config is invalid (every bad field with its path).
 */
export function createRouter(config: RouterConfig | ResolvedConfig, options: RouterOptions = {}): Router {
  const resolved = parseConfig(config, options.env ? { env: options.env } : {});
  const clock = options.clock ?? systemClock;
  const logger = options.logger;
  const transport: HttpTransport = createHttpTransport({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    clock,
  });
  const webSocket = createWebSocketTransport({
    ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    clock,
  });
  const closing = new AbortController();
  // Every running call listens on the router's close signal (and removes its listener when it
  // settles): many concurrent calls are normal, not a leak.
  setMaxListeners(0, closing.signal);
  const adapters = new Map<string, ProviderAdapter>();
  for (const [name, provider] of Object.entries(resolved.providers))
    adapters.set(name, createAdapter(name, provider));
  // One tracker for the router: a provider's latency is a fact about the provider, whichever
  // route measured it. (Per-route decay times come with the scoring work of a later issue.)
  const tracker = new LatencyTracker();
  const seen = new Map<string, { provider: string; capability: Capability; model: string }>();
  const emitter = new RouterEmitter((error) =>
    logger?.warn('A router event listener threw', { error: String(error) }),
  );

  /** The circuit breaker of (provider, capability). */
  const tracing = createTracing(VERSION);
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
  const healthOf = (provider: string, capability: Capability): CandidateHealth =>
    health.get(provider, capability);

  const routeOf = (name: string, capability: Capability): ResolvedRouteConfig | string => {
    const route = resolved.routes[name];
    if (!route) return `no route named '${name}' in the config`;
    if (route.capability !== capability)
      return `route '${name}' is a ${route.capability} route, not ${capability}`;
    return route;
  };

  /** Hedge budgets per route: a token bucket that earns `maxShare` of a hedge per call, starting full. */
  const hedgeBudgets = new Map<string, HedgeBudget>();
  const hedgeBudgetOf = (route: string, maxShare: number) => {
    let b = hedgeBudgets.get(route);
    if (!b) {
      b = createHedgeBudget(maxShare);
      hedgeBudgets.set(route, b);
    }
    return b;
  };

  /** Builds the RouteRun shared parts and orders candidates. */
  const plan = <T>(
    capability: Capability,
    routeName: string,
    request: CallOptions,
    build: (
      name: string,
      provider: ResolvedProviderConfig,
      adapter: ProviderAdapter,
    ) =>
      | { model: string | undefined; start: RouteCandidate<T>['start']; inputEnded?: Promise<void> }
      | string,
  ): RouteRun<T> => {
    const route = routeOf(routeName, capability);
    const base: RouteRun<T> = {
      capability,
      route: routeName,
      candidates: [],
      signal: request.signal,
      closeSignal: closing.signal,
      transport,
      webSocket,
      clock,
      tracker,
      emitter,
      tracing,
    };
    if (typeof route === 'string') {
      return { ...base, noCandidate: new ConfigError([{ path: ['routes', routeName], message: route }]) };
    }
    const built: RouteCandidate<T>[] = [];
    const missing: ConfigIssue[] = [];
    for (const name of route.providers) {
      const adapter = adapters.get(name);
      const provider = resolved.providers[name];
      if (!adapter || !provider) continue;
      const made = build(name, provider, adapter);
      if (typeof made === 'string') {
        missing.push({ path: ['providers', name, capability], message: made });
        continue;
      }
      const key = LatencyTracker.key(name, capability, made.model);
      seen.set(key, { provider: name, capability, model: made.model ?? '' });
      const snap = tracker.tail(key);
      const health = healthOf(name, capability);
      built.push({
        provider: name,
        ...(made.model !== undefined ? { model: made.model } : {}),
        key,
        // A streaming STT provider answers when the speaker pauses, which can be long after the
        // attempt starts: an 'auto' first-chunk deadline would cut off a long first utterance,
        // so there it relies on the idle deadline and the socket instead (a number still applies).
        firstChunkMs:
          capability === 'stt' && !made.inputEnded && route.firstChunkTimeoutMs === 'auto'
            ? 0
            : firstChunkDeadlineMs(route.firstChunkTimeoutMs, snap),
        deadlines: { connectMs: route.connectTimeoutMs, idleMs: route.idleTimeoutMs },
        start: made.start,
        ...(made.inputEnded ? { inputEnded: made.inputEnded } : {}),
        ...(health ? { health } : {}),
      });
    }
    // The objective and hedge delay of each candidate from its learned distribution (hedge-delay.ts).
    const planned = planRoute(
      tracker,
      built.map((c) => ({ key: c.key, healthy: c.health?.allows() ?? true })),
      // With the budget empty no hedge can be counted on: the plan (and the first choice) is unhedged.
      route.hedge && hedgeBudgetOf(routeName, route.hedge.maxShare).available() ? route.hedge : undefined,
      clock.now(),
    );
    built.forEach((c, i) => {
      const ms = planned[i]!.hedgeAfterMs;
      if (ms !== undefined) c.hedgeAfterMs = ms;
    });
    const order = orderCandidates(
      built.map((c, index) => ({
        index,
        scoreMs: planned[index]!.objectiveMs,
        lastTriedAt: tracker.lastTriedAt(c.key),
        inFlight: tracker.inFlightOf(c.key),
        healthy: c.health?.allows() ?? true,
        weight: route.weights[c.provider] ?? 1,
        cost: route.costs[c.provider] ?? 0,
      })),
      {
        strategy: route.strategy,
        now: clock.now(),
        probeAfterMs: route.probeAfterMs,
        costLatencyFactor: route.costLatencyFactor,
        inFlightWeight: route.inFlightWeight,
        ...(options.random ? { random: options.random } : {}),
      },
    );
    const deadlineMs = request.deadlineMs ?? route.totalTimeoutMs;
    let hedgeBudget: HedgeBudget | undefined;
    if (route.hedge) {
      const budget = hedgeBudgetOf(routeName, route.hedge.maxShare);
      budget.earn(route.hedge.maxShare);
      hedgeBudget = budget;
    }
    return {
      ...base,
      resumable: route.midStream !== 'error',
      ...(route.ewmaDecayMs !== undefined ? { ewmaDecayMs: route.ewmaDecayMs } : {}),
      candidates: order.map((i) => built[i]!),
      // No provider of the route maps the request's voice or model: the request (or the config)
      // is wrong, not a provider; each issue names the mapping that is missing.
      ...(missing.length && built.length === 0 ? { noCandidate: new ConfigError(missing) } : {}),
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(hedgeBudget ? { hedgeBudget } : {}),
    };
  };

  const onDropped = (provider: string) => (droppedBytes: number, format: AudioFormat) =>
    logger?.warn('Dropped a stray partial sample at the end of a provider stream', {
      provider,
      droppedBytes,
      encoding: format.encoding,
      sampleRate: format.sampleRate,
    });

  return {
    tts(request) {
      const want = request.format ?? DEFAULT_TTS_FORMAT;
      // One request per sentence, so synthesis starts with the first sentence of streamed
      // text, and a provider that fails mid-utterance is replaced from the first sentence
      // not fully delivered (midStream 'resume').
      const progress = new TtsProgress(request.text, request.language);
      const run = plan<AudioChunk>('tts', request.route ?? 'tts', request, (name, provider, adapter) => {
        const tts = adapter.tts;
        const section = sectionOf(provider).tts;
        if (!tts || !section) return 'no tts capability';
        const voice = section.voices[request.voice];
        if (voice === undefined) return `no voice '${request.voice}' in its tts.voices`;
        const model = section.model;
        return {
          model: voice,
          start: (attempt: AttemptContext) => {
            const native = pickNativeFormat(tts.capabilities.outputFormats, want);
            return (async function* () {
              for (let i = progress.delivered; ; i++) {
                const full = (await progress.sentence(i))?.trim();
                if (full === undefined) return;
                // A sentence cut mid-way on the last provider resumes after its last word
                // fully heard, where that provider sent word timestamps.
                const cut = progress.cut?.index === i ? progress.cut : undefined;
                const text = cut ? remainingText(cut.text, cut.words, cut.deliveredMs) : full;
                if (text !== '') {
                  const state: SentenceCut = { index: i, text, words: [], deliveredMs: 0 };
                  const raw = tts.synthesize(
                    {
                      text,
                      voice,
                      ...(model !== undefined ? { model } : {}),
                      format: native,
                      ...(request.language !== undefined ? { language: request.language } : {}),
                      ...(request.speed !== undefined ? { speed: request.speed } : {}),
                    },
                    attempt,
                  );
                  for await (const chunk of toCallerAudio(
                    keepWords(raw, state.words),
                    want,
                    name,
                    onDropped(name),
                  )) {
                    yield chunk;
                    // Resumed here: the caller has this chunk.
                    state.deliveredMs += durationMs(chunk.format, chunk.data.byteLength);
                    progress.cut = state;
                  }
                }
                progress.delivered = i + 1;
                progress.cut = undefined;
              }
            })();
          },
        };
      });
      run.isEmpty = async () => !(await progress.hasSpeech());
      run.markResumed = (chunk) => ({ ...chunk, discontinuity: true });
      return routedStream(run);
    },

    stt(request) {
      const audio = new ReplayableAudio(request.audio, request.format);
      /** Byte offset in the caller's audio where the next provider starts after a mid-stream failure. */
      let replayFrom = 0;
      let ended: Promise<void> | undefined;
      const inputEnded = () => {
        ended ??= (async () => {
          for await (const _ of audio.reader(closing.signal)) {
            // drain: resolves once the caller's audio has ended
          }
        })();
        return ended;
      };
      const run = plan<TranscriptEvent>(
        'stt',
        request.route ?? 'stt',
        request,
        (_name, provider, adapter) => {
          const stt = adapter.stt;
          const section = sectionOf(provider).stt;
          if (!stt || !section) return 'no stt capability';
          const model = section.model;
          const input =
            stt.capabilities.inputFormats.find((f) => sameFormat(f, request.format)) ??
            stt.capabilities.inputFormats[0];
          if (!input) return 'its stt adapter accepts no input format';
          const language = request.language ?? section.language;
          return {
            model,
            start: (attempt: AttemptContext) => {
              // A provider taking over mid-utterance hears the audio since the last final;
              // its times are moved onto the caller's timeline.
              const from = replayFrom;
              const offsetMs = durationMs(request.format, from);
              const events = stt.transcribe(
                {
                  audio: convertAudio(audio.reader(attempt.signal, from), request.format, input),
                  format: input,
                  ...(model !== undefined ? { model } : {}),
                  ...(language !== undefined ? { language } : {}),
                  interim: request.interim ?? false,
                },
                attempt,
              );
              return offsetMs === 0 ? events : shiftTranscript(events, offsetMs);
            },
            ...(stt.capabilities.streamingInput ? {} : { inputEnded: inputEnded() }),
          };
        },
      );
      run.textOf = (e) => (e.type === 'final' ? e.text : undefined);
      run.onDelivered = (e) => {
        if (e.type !== 'final' || e.endMs === undefined) return;
        // Audio up to the end of a delivered final is never needed again.
        const frame = bytesPerFrame(request.format);
        replayFrom = Math.min(
          audio.totalBytes,
          Math.floor((e.endMs / 1000) * request.format.sampleRate) * frame,
        );
        audio.trimBefore(replayFrom);
      };
      return routedStream(run);
    },

    chat(request) {
      /** Text the caller already has: with midStream 'continue' the next provider continues it. */
      let delivered = '';
      const run = plan<ChatEvent>('chat', request.route ?? 'chat', request, (_name, provider, adapter) => {
        const chat = adapter.chat;
        const section = sectionOf(provider).chat;
        if (!chat || !section) return 'no chat capability';
        const model = section.models[request.model];
        if (model === undefined) return `no model '${request.model}' in its chat.models`;
        return {
          model,
          start: (attempt: AttemptContext) =>
            chat.chat(
              {
                // Prefill: the partial reply as the start of the assistant's message.
                messages: delivered
                  ? [...request.messages, { role: 'assistant', content: delivered }]
                  : request.messages,
                model,
                ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
                ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
                ...(request.tools !== undefined ? { tools: request.tools } : {}),
              },
              attempt,
            ),
        };
      });
      run.textOf = (e) => (e.type === 'text-delta' ? e.text : undefined);
      run.onDelivered = (e) => {
        if (e.type === 'text-delta') delivered += e.text;
      };
      return routedStream(run);
    },

    async warmup() {
      const origins = new Set<string>();
      for (const provider of Object.values(resolved.providers)) {
        if ('baseUrl' in provider && typeof provider.baseUrl === 'string')
          origins.add(new URL(provider.baseUrl).origin);
      }
      await Promise.all([
        ...[...origins].map((o) => transport.preconnect?.(o).catch(() => {})),
        // The resampler's wasm module takes ~40 ms to load the first time: not on a caller's turn.
        preloadResampler().catch(() => {}),
        tracing.ready,
      ]);
    },

    stats() {
      const providers: ProviderStats[] = [];
      for (const [key, who] of seen) {
        const snap = tracker.snapshot(key);
        if (snap.samples === 0 && snap.errors === 0 && snap.inFlight === 0) continue;
        const breaker = health.peek(who.provider, who.capability)?.snapshot();
        providers.push({
          ...who,
          ...snap,
          breaker: breaker?.state ?? 'closed',
          breakerReopenAtMs: breaker?.reopenAt,
          misconfigured: breaker?.misconfigured ?? false,
        });
      }
      return { providers };
    },

    on(event, listener) {
      return emitter.on(event, listener);
    },

    async close() {
      closing.abort();
      await Promise.all([
        transport.close(),
        ...[...adapters.values()].map((a) => a.close?.().catch(() => {})),
      ]);
    },
  };
}

/**
 * The capability sections of a provider config, as the router reads them: every provider kind
 * names them `tts` (with `voices` and an optional `model`), `stt` (optional `model` and
 * `language`) and `chat` (with `models`), whatever else each kind adds.
 */
function sectionOf(provider: ResolvedProviderConfig): {
  tts?: { model?: string; voices: Record<string, string> };
  stt?: { model?: string; language?: string };
  chat?: { models: Record<string, string> };
} {
  return provider as never;
}

/** Passes a provider's audio through, collecting the word timestamps it carries into `words`. */
async function* keepWords(
  source: AsyncIterable<ProviderAudio>,
  words: WordTiming[],
): AsyncGenerator<ProviderAudio, void, undefined> {
  for await (const chunk of source) {
    if (chunk.words) words.push(...chunk.words);
    yield chunk;
  }
}

/** Moves transcript times by `offsetMs` (events of a provider that heard the audio from an offset). */
async function* shiftTranscript(
  events: AsyncIterable<TranscriptEvent>,
  offsetMs: number,
): AsyncGenerator<TranscriptEvent, void, undefined> {
  const at = (ms: number | undefined) => (ms === undefined ? undefined : ms + offsetMs);
  for await (const e of events) {
    const shifted: TranscriptEvent = { ...e };
    if (e.startMs !== undefined) shifted.startMs = at(e.startMs)!;
    if (e.endMs !== undefined) shifted.endMs = at(e.endMs)!;
    if (e.words) {
      shifted.words = e.words.map((w) => ({
        ...w,
        ...(w.startMs !== undefined ? { startMs: w.startMs + offsetMs } : {}),
        ...(w.endMs !== undefined ? { endMs: w.endMs + offsetMs } : {}),
      }));
    }
    yield shifted;
  }
}

/** Re-frames the caller's STT audio into whole samples and converts it to the provider's format. */
async function* convertAudio(
  source: AsyncIterable<Uint8Array>,
  from: AudioFormat,
  to: AudioFormat,
): AsyncGenerator<Uint8Array, void, undefined> {
  const framer = new SampleFramer(from);
  const converter = await createAudioConverter(from, to);
  try {
    for await (const bytes of source) {
      const whole = framer.push(bytes);
      if (whole.byteLength === 0) continue;
      const out = converter.push(whole);
      if (out.byteLength > 0) yield out;
    }
    framer.end();
    const tail = converter.flush();
    if (tail.byteLength > 0) yield tail;
  } finally {
    converter.close();
  }
}
