import { hasCode, VoxrouteError, type VoxrouteErrorOptions } from './voxroute-error.js';

/**
 * The longest wait a {@link ProviderError.retryAfterMs} reports, in ms: 600 000 (10 min), the
 * circuit breaker's cap of a Retry-After cooldown (a provider cannot park itself for a day).
 */
export const MAX_RETRY_AFTER_MS = 600_000;

/** Options of a {@link ProviderError}. */
export interface ProviderErrorOptions extends VoxrouteErrorOptions {
  provider: string;
  /** HTTP status, or WebSocket close code, when there was one. */
  status?: number;
  /** The provider's own error code from the wire (`error.code`, `x-amzn-errortype`, ...). */
  providerCode?: string | number;
  /** The provider's own error type (`error.type`, e.g. `'overloaded_error'`). */
  providerType?: string;
  /**
   * How long the provider asked us to wait (from `Retry-After` or `retry-after-ms`), in ms.
   * Clamped to [0, {@link MAX_RETRY_AFTER_MS}] (`Infinity` too); `NaN` or a negative value is
   * dropped (see {@link ProviderError.retryAfterMs}).
   */
  retryAfterMs?: number;
  /** A reset of a reused keep-alive socket before any response byte, not retried. Default: false. */
  reusedSocketReset?: boolean;
  /** The provider closed an open session for inactivity (see {@link ProviderError.idleTimeout}). Default: false. */
  idleTimeout?: boolean;
  /** An open streaming connection was lost (see {@link ProviderError.connectionLost}). Default: false. */
  connectionLost?: boolean;
  /**
   * Whether the provider refused our credentials. Default: true for status 401, 403 and
   * WebSocket close 1008, false otherwise; a WebSocket close passes it from its reason (a 1008
   * for a quota or an idle input is not an auth failure).
   */
  authError?: boolean;
  /** The provider does not know the model or voice it was sent (see {@link ProviderError.unknownModel}). Default: false. */
  unknownModel?: boolean;
}

/**
 * A provider answered with an error: an HTTP error status, an error event inside a 200
 * stream, an error close of a WebSocket, or a network failure talking to it. Code
 * `PROVIDER_ERROR`. `retryable` follows the status (network, 408, 409, 429, 5xx: true;
 * 400, 401, 403, 404, 422: false); `partialOutput` is true when the stream had already
 * yielded output. The message holds the provider's message, never a request header or key.
 */
export class ProviderError extends VoxrouteError {
  // The class's own name, whatever a bundler renames it to (e.g. `_ProviderError`): `constructor.name`
  // reads 'ProviderError' in the built package too.
  static {
    Object.defineProperty(ProviderError, 'name', { value: 'ProviderError' });
  }

  override readonly code = 'PROVIDER_ERROR';
  declare readonly provider: string;
  /** HTTP status or WebSocket close code, when there was one. */
  readonly status: number | undefined;
  /** The provider's own error code, e.g. `'overloaded'`, `'rate_limit_exceeded'` or vLLM's integer. */
  readonly providerCode: string | number | undefined;
  /** The provider's own error type, e.g. `'overloaded_error'`. */
  readonly providerType: string | undefined;
  /**
   * Cool-down the provider asked for, in ms: a finite number from 0 to {@link MAX_RETRY_AFTER_MS}
   * (600 000, 10 min, the breaker's cap), so that `setTimeout(retry, error.retryAfterMs)` waits
   * as asked. A longer wait (a 400-digit `Retry-After`, `retry-after-ms: 1e20`, an HTTP-date
   * years ahead) reads as the cap; undefined when the provider asked for none, or for a wait
   * that is not a number or negative.
   */
  readonly retryAfterMs: number | undefined;
  /**
   * True when a pooled keep-alive connection that had served earlier requests was reset or
   * closed before any byte of the response, and the HTTP transport could not retry the request
   * on a fresh connection (its body was a stream, already consumed, or the retry also met a
   * reused socket). Such a reset is usually the server closing an idle connection just as the
   * request went out, not a failure of the provider: the router does not count it against the
   * provider's circuit breaker. False for every other error, including a reset of a fresh
   * connection. Set by the undici path of the HTTP transport only (a fetch cannot tell a reused
   * connection).
   */
  readonly reusedSocketReset: boolean;
  /**
   * True when the provider closed a streaming session because nothing reached it within its
   * inactivity window (Deepgram's 1011 `NET-0001`: no audio or KeepAlive for 10 s). Retryable:
   * nothing is wrong with the request, the session was just quiet too long; `stt()` reconnects
   * to the same provider for the caller's next audio, replaying the audio since the last final
   * transcript. False for every other error.
   */
  readonly idleTimeout: boolean;
  /**
   * True when an open streaming session ended because its connection was lost, not because the
   * provider refused anything: WebSocket close 1006 (abnormal closure: the TCP connection
   * dropped with no close frame, e.g. a load balancer or NAT dropping a connection it found
   * idle) or 1001 (going away: the server or a proxy shutting down). Retryable. `stt()` treats
   * it as an inactivity close when no audio since the last final transcript was waiting for
   * one (it reconnects to the same provider for the caller's next audio); otherwise it is a
   * mid-stream failure under the route's `midStream` rule. Set by Deepgram's listen adapter;
   * false for every other error.
   */
  readonly connectionLost: boolean;
  /**
   * True when the provider answered that it does not know the model or voice id it was sent
   * (OpenAI-compatible `error.code` `model_not_found` / `invalid_model`, or a message saying the
   * model does not exist; ElevenLabs `detail.status` `model_not_found` / `voice_not_found`),
   * whatever the HTTP status (400 included). The id comes from the router config's mapping for
   * this provider, so this is the provider's configuration problem, not the caller's request:
   * the router falls back to the next candidate (even on a 400) and charges the failure to
   * this provider's breaker as an ordinary failure (not `misconfigured`: the provider's other
   * models and voices may be fine). Not retryable (the same provider would answer the same).
   * False for every other error.
   */
  readonly unknownModel: boolean;

  /**
   * `options.provider` is required. `options.retryAfterMs` is kept in ms, capped at 600000
   * (10 minutes; a negative or NaN value becomes undefined); `reusedSocketReset`, `idleTimeout`
   * and `connectionLost` default to false; `authError` overrides the status-based `isAuthError`.
   */
  constructor(message: string, options: ProviderErrorOptions) {
    super(message, options);
    this.name = 'ProviderError';
    this.status = options.status;
    this.providerCode = options.providerCode;
    this.providerType = options.providerType;
    this.retryAfterMs = clampRetryAfter(options.retryAfterMs);
    this.reusedSocketReset = options.reusedSocketReset ?? false;
    this.idleTimeout = options.idleTimeout ?? false;
    this.connectionLost = options.connectionLost ?? false;
    this.unknownModel = options.unknownModel ?? false;
    this.#authError = options.authError;
  }

  readonly #authError: boolean | undefined;

  /**
   * True for authentication and permission failures: the `authError` option when given, else
   * status 401, 403 or WebSocket close 1008.
   */
  get isAuthError(): boolean {
    return this.#authError ?? (this.status === 401 || this.status === 403 || this.status === 1008);
  }

  static override isInstance(error: unknown): error is ProviderError {
    return hasCode(error, 'PROVIDER_ERROR');
  }
}

/** `ms` within [0, MAX_RETRY_AFTER_MS], or undefined when it is not a number or negative. */
function clampRetryAfter(ms: number | undefined): number | undefined {
  if (typeof ms !== 'number' || Number.isNaN(ms) || ms < 0) return undefined;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}
