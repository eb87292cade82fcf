import type { Agent } from 'undici';
import { type CaCertificates, caEntries } from './ca-certificates.js';

/** Options of {@link tunedAgentOptions}. */
export interface TunedAgentSettings {
  /** TCP (and TLS) connect timeout, in ms. Default: 10,000. */
  connectTimeoutMs?: number;
  /** How long an idle keep-alive socket stays open, in ms (a server's `Keep-Alive: timeout` hint wins when shorter). Default: 30,000. */
  keepAliveTimeoutMs?: number;
  /**
   * Extra CA certificates (PEM; a string may hold several) to trust for TLS, in addition to
   * Node's bundled root CAs (`tls.rootCertificates`), e.g. the self-signed certificate of a
   * loopback mock (`startMockProviders(config, { tls: true })` returns it as `ca`).
   * Default: none (the bundled roots only).
   */
  ca?: CaCertificates;
}

/**
 * The `ca` list of a TLS connection that trusts `extra` as well as Node's bundled root CAs
 * (Node's own `ca` option replaces the bundled roots rather than adding to them).
 * @throws TypeError naming `ca` when `extra` is not {@link CaCertificates} or holds no valid PEM
 *   certificate (see {@link caEntries}).
 */
export function withBundledRoots(extra: CaCertificates): Array<string | Buffer> {
  const entries = caEntries(extra).map((e) =>
    typeof e === 'string' || Buffer.isBuffer(e) ? e : Buffer.from(e.buffer, e.byteOffset, e.byteLength),
  );
  // node:tls loads here, when a CA is added, not when voxroute is imported (about 10 ms).
  return [...process.getBuiltinModule('node:tls').rootCertificates, ...entries];
}

/**
 * The options of the undici Agent the transport creates, tuned for low latency:
 * - keep-alive sockets kept `keepAliveTimeoutMs` (default 30 s, up to 10 min when the server
 *   hints longer), TCP keep-alive probes on, Nagle off (undici's default), no pipelining;
 * - `connect.timeout` = `connectTimeoutMs` (default 10 s);
 * - `connect.ca` = Node's bundled root CAs plus `ca`, when `ca` is given;
 * - `headersTimeout: 0` and `bodyTimeout: 0`: undici's own 300 s limits are disabled so that the
 *   SDK's deadlines rule. The transport also sets both to 0 on every request, which
 *   overrides the defaults of a caller-supplied dispatcher.
 *
 * Spread it to build a dispatcher of your own, e.g.
 * `new Agent({ ...tunedAgentOptions(), connections: 1 })`.
 */
export function tunedAgentOptions(settings: TunedAgentSettings = {}): Agent.Options {
  const keepAliveTimeout = settings.keepAliveTimeoutMs ?? 30_000;
  return {
    connect: {
      timeout: settings.connectTimeoutMs ?? 10_000,
      keepAlive: true,
      keepAliveInitialDelay: 30_000,
      ...(settings.ca !== undefined ? { ca: withBundledRoots(settings.ca) } : {}),
    },
    keepAliveTimeout,
    keepAliveMaxTimeout: Math.max(keepAliveTimeout, 600_000),
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
  };
}

let loading: Promise<typeof import('undici')> | undefined;

/**
 * Loads undici once, lazily: importing it costs ~100-200 ms on a small machine, which must not
 * count against `import 'voxroute'`. Started when a transport without `fetch` or `dispatcher`
 * is created; the first request waits for it if it has not finished.
 */
export function loadUndici(): Promise<typeof import('undici')> {
  loading ??= import('undici');
  return loading;
}
