import type { FleetStats } from '../fleet/index.js';
import type { Clock } from '../internal/clock.js';
import type { CaCertificates } from '../transport/ca-certificates.js';
import type { AudioChunk } from '../types/audio.js';
import type { ChatEvent } from '../types/chat.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import type { Capability, RoutedStream } from '../types/route-result.js';
import type { TranscriptEvent } from '../types/transcript.js';
import type { RouterEventName, RouterListener } from './events.js';
import type { LatencySnapshot } from './latency-tracker.js';

/** Where the router reports what the caller should know but that is not an error. */
export interface Logger {
  /**
   * Something the caller should know (e.g. a stray half sample dropped at the end of a stream,
   * shared health turned off); `attributes` such as `{ provider }` when there are any. What it
   * throws or rejects with is ignored.
   */
  warn(message: string, attributes?: Record<string, unknown>): void;
  /** Detail for troubleshooting; optional, called only when present. What it throws is ignored. */
  debug?(message: string, attributes?: Record<string, unknown>): void;
}

/** Options of {@link createRouter}. */
export interface RouterOptions {
  /**
   * A fetch to send HTTP with instead of undici's `request` on the router's tuned Agent
   * (e.g. `globalThis.fetch`, so msw can intercept it). Anything but a function is a TypeError
   * naming `fetch` from createRouter. Default: undici `request`.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * A WebSocket constructor for WebSocket providers instead of undici's (e.g. `globalThis.WebSocket`,
   * so msw's `ws` API can intercept it). A standard constructor cannot send handshake headers,
   * so adapters then authenticate the way the provider allows without them. Anything but a
   * function is a TypeError naming `WebSocket` from createRouter. Default: undici's.
   */
  WebSocket?: typeof globalThis.WebSocket | undefined;
  /**
   * Extra CA certificates (PEM) to trust for `https://` and `wss://` providers, in addition to
   * Node's bundled root CAs, as `node:tls` takes them: a string (which may hold several), the
   * bytes of a PEM file (a Buffer from `readFileSync('ca.pem')`, any Uint8Array), or an array
   * of those; anything else, or an entry holding no PEM certificate that parses (a DER file,
   * a key, a cut or corrupt block), is a TypeError naming `ca` (and the entry) from createRouter. E.g. the `ca` of
   * `startMockProviders(config, { tls: true })` (voxroute/testing), or a private CA of a
   * self-hosted model server. Applies to voxroute's own undici transport (HTTP and WebSocket);
   * not to a caller's `fetch` or `WebSocket`, to Bun's default fetch, nor to SageMaker (the AWS
   * SDK). Default: none.
   */
  ca?: CaCertificates | undefined;
  /**
   * Monotonic clock and timers for every deadline and measurement: an object with the functions
   * `now()` (ms), `setTimeout(fn, ms)` and `clearTimeout(handle)`; anything else is a TypeError
   * naming `clock` from createRouter. Default: performance.now() and the global timers.
   * The router reads `now()` through a monotonic wrapper: a value below one it already read (a
   * wall clock stepped back by NTP, a test clock set back) or one that is not a finite number
   * counts as the last value read, so time stands still until the clock passes it again, and no
   * latency, hedge delay or score is ever negative or NaN. Timer delays it passes are finite
   * numbers from 0.
   */
  clock?: Clock | undefined;
  /**
   * Receives warnings (e.g. a stray half sample dropped at the end of a stream): an object with
   * a `warn(message, attributes?)` method and optionally `debug` (e.g. `console`, pino). Its
   * calls are isolated, as `router.on()` listeners are: a logger that throws or returns a
   * rejected promise never changes a call's outcome nor a provider's health. Anything else
   * (`{}`, a number, a `debug` that is not a function) is a TypeError naming `logger` from
   * createRouter. Default: none.
   */
  logger?: Logger | undefined;
  /**
   * Uniform random numbers in [0, 1) for power of two choices and weighted draws. Anything but a
   * function is a TypeError naming `random` from createRouter. Default: Math.random.
   */
  random?: (() => number) | undefined;
  /**
   * Environment for `{ env: NAME }` secrets when the config is not resolved yet; anything but an
   * object is a TypeError naming `env` from createRouter. Default: process.env.
   */
  env?: Record<string, string | undefined> | undefined;
  /**
   * When a TTS stream resamples (the provider's sample rate is not the caller's) on a worker
   * thread instead of the event loop: the number of this router's streams already resampling
   * at which the next one goes to the thread (decided once per stream; `0`: every one), or
   * `false` for never. The thread (one per router, started by the first stream that needs it,
   * `unref()`ed, ended by `close()`) takes the filter's 5-6 µs per 20 ms chunk off the event
   * loop, which matters from hundreds of concurrent streams; below the threshold a stream's
   * chunks skip the thread round trip. Only rate changes between PCM s16le, mu-law and A-law
   * go to the thread, with the same bytes as on the event loop; where a worker cannot start
   * (a runtime without `node:worker_threads`), resampling stays on the event loop and the logger
   * is told once. A failure on the thread ends the stream with AudioConversionError.
   * Anything else than false or an integer from 0 is a TypeError naming `resampleOffload`.
   * Default: 32 (docs/decisions.md, "Resampling on a worker thread").
   */
  resampleOffload?: number | false | undefined;
}

/** Measurements of one (provider, capability, model), as {@link Router.stats} reports them. */
export interface ProviderStats extends LatencySnapshot {
  /** Name of the provider, as in the config. */
  provider: string;
  /** Capability measured: `'tts'`, `'stt'` or `'chat'`. */
  capability: Capability;
  /** Provider-side model or voice id. */
  model: string;
  /** State of the (provider, capability) circuit breaker. */
  breaker: 'closed' | 'open' | 'half-open';
  /** While open: when the breaker lets a probe through again, monotonic ms. */
  breakerReopenAtMs: number | undefined;
  /**
   * True when the provider refused our credentials (401, 403, WebSocket 1008 whose reason names
   * an auth failure; `ProviderError.isAuthError`). A quota, concurrency or rate-limit refusal
   * is not.
   */
  misconfigured: boolean;
}

/** Snapshot of the router's measurements. */
export interface RouterStats {
  /** One entry per (provider, capability, model) that was tried at least once. */
  providers: ProviderStats[];
  /** The shared store, when the config has a `health` section (docs/health.md, "Fleet-shared health"). */
  fleet?: FleetStats;
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
   * Opens connections (keep-alive) to every provider's origin, loads the resampler, the
   * providers' adapter code (loading since `createRouter()`: about 20 ms of compile, and a
   * SageMaker provider's AWS SDK) and the runtime's sentence break rules (15 to 20 ms the first
   * time a process splits text into sentences) ahead of the first call, so no caller pays for a
   * cold start. Never throws: an origin that cannot be reached, or takes the connection but does
   * not answer, is given up at the routes' `connectTimeoutMs` (the longest of them; the
   * connection and the answer together), a failed load of the adapters' code is left to the
   * first call, and `close()` ends a warmup in progress.
   */
  warmup(): Promise<void>;
  /** Latency, error and in-flight figures per (provider, capability, model). */
  stats(): RouterStats;
  /**
   * Listens to a router event; returns an unsubscribe function. Events (shapes in RouterEvents):
   * `'attempt'` (an attempt on a provider starts), `'hedge'` (a hedged attempt starts),
   * `'first-chunk'` (with `timeToFirstChunkMs`), `'fallback'` (an attempt failed and the call
   * moves on to `next`: before its first chunk, or mid-stream where the route continues the
   * stream; `error`, `next`, `partialOutput`), `'error'` (an attempt failed; `error`, `partialOutput`),
   * `'breaker'` (a circuit breaker changed state) and `'fleet'` (the fleet-shared health store,
   * config `health`). A listener that throws is reported to the logger (its error as text, with
   * no secret in it) and the call goes on.
   * @throws TypeError naming an unknown event (with the known names) or a listener that is not
   *   a function.
   */
  on<E extends RouterEventName>(event: E, listener: RouterListener<E>): () => void;
  /** Closes every connection; streams still running end with an AbortError. */
  close(): Promise<void>;
}
