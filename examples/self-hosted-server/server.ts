/**
 * voxroute's self-hosted reference server: an OpenAI-compatible HTTP server (node:http, no
 * framework) for an EC2 instance or any Debian box. `/v1/audio/speech` runs espeak-ng,
 * `/v1/audio/transcriptions` runs pocketsphinx, `/v1/chat/completions` streams the replies of a
 * small deterministic responder. See README.md beside this file.
 *
 * CLI: `node --import jiti/register examples/self-hosted-server/server.ts --port 8801
 *       [--host 0.0.0.0] [--fail-mode none|503|stall|reset] [--api-key K]`
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { preloadResampler } from '../../src/audio/index.js';
import { ApiError, sendApiError } from './api-error.js';
import { checkBearer } from './auth.js';
import { runCli } from './cli.js';
import type { RouteContext, ServerSettings } from './context.js';
import { type EngineOptions, type EngineRun, EngineSpawner } from './engines.js';
import { applyFailMode, type FailMode } from './failure-mode.js';
import { findRoute } from './routes.js';

export type { EngineExit, EngineOptions, EngineRun } from './engines.js';
export type { FailMode } from './failure-mode.js';

/** Default port of the server (the CLI's `--port`). */
export const DEFAULT_PORT = 8801;

/** Default gap between streamed chat words, in ms. */
export const DEFAULT_CHAT_WORD_GAP_MS = 30;

/** Options of {@link startSelfHostedServer}. */
export interface SelfHostedServerOptions {
  /** TCP port; 0 picks a free one. Default: {@link DEFAULT_PORT} (8801). */
  port?: number;
  /** Interface to listen on. Default: `127.0.0.1`; use `0.0.0.0` on an EC2 instance. */
  host?: string;
  /** Scripted failure for every request. Default: `none`. Can be changed later with `setFailMode`. */
  failMode?: FailMode;
  /** When set, every route but `/health` needs `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Engine binaries (names on PATH or paths). Default: found on PATH. */
  engines?: EngineOptions;
  /** Gap between streamed chat words, in ms. Default: {@link DEFAULT_CHAT_WORD_GAP_MS}; 0 sends them back to back. */
  chatWordGapMs?: number;
  /** Wall clock in ms since the epoch, for `created` fields. Default: `Date.now`. */
  now?: () => number;
  /** Receives one line per finished request (`POST /v1/audio/speech 200 312ms`). Default: none. */
  log?: (line: string) => void;
  /** Called for each engine process started (for logs and tests). */
  onEngineRun?: (run: EngineRun) => void;
}

/** A running server. */
export interface SelfHostedServer {
  /** Origin, e.g. `http://127.0.0.1:8801` (a wildcard host is shown as loopback). */
  url: string;
  /** `url` + `/v1`: the `baseURL` for OpenAI clients and the `baseUrl` of a voxroute provider. */
  baseUrl: string;
  /** The port listened on. */
  port: number;
  /** The failure mode now in force. */
  readonly failMode: FailMode;
  /** Changes the failure mode of the requests that arrive from now on. */
  setFailMode(mode: FailMode): void;
  /** How many engine processes are running now. */
  readonly runningEngines: number;
  /** Stops listening, drops every open connection (stalled ones too) and kills running engines. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the server and resolves once it listens. Rejects with the listen error (e.g.
 * `EADDRINUSE`). Engines are looked up on each request, so the server starts without them;
 * their endpoints then answer 501 naming the Debian packages to install.
 */
export async function startSelfHostedServer(
  options: SelfHostedServerOptions = {},
): Promise<SelfHostedServer> {
  const settings: ServerSettings = {
    chatWordGapMs: options.chatWordGapMs ?? DEFAULT_CHAT_WORD_GAP_MS,
    now: options.now ?? Date.now,
    engines: options.engines ?? {},
  };
  const spawner = new EngineSpawner(options.onEngineRun);
  let failMode: FailMode = options.failMode ?? 'none';
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}-${++idCounter}`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
      options.log?.(
        `${req.method} ${url.pathname} ${res.headersSent ? res.statusCode : '-'} ${Math.round(performance.now() - started)}ms${res.writableFinished ? '' : ' (closed early)'}`,
      );
    });
    req.on('error', () => controller.abort());
    if (applyFailMode(failMode, req, res, url.pathname)) return;
    try {
      const route = findRoute(req.method ?? 'GET', url.pathname);
      if (route.authenticated) checkBearer(req, options.apiKey);
      const ctx: RouteContext = { req, res, url, signal: controller.signal, settings, spawner, nextId };
      await route.handle(ctx);
    } catch (error) {
      if (error instanceof ApiError) {
        sendApiError(res, error);
        return;
      }
      options.log?.(
        `internal error on ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`,
      );
      sendApiError(res, new ApiError(500, 'The server had an internal error.', { code: 'internal_error' }));
    }
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Load the resampler (WebAssembly) now rather than on the first `pcm` or non-16 kHz request.
  preloadResampler().catch(() => {});
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    get failMode() {
      return failMode;
    },
    setFailMode(mode: FailMode) {
      failMode = mode;
    },
    get runningEngines() {
      return spawner.size;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        spawner.killAll();
      });
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCli(process.argv.slice(2), startSelfHostedServer).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    },
  );
}
