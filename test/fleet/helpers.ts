import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from '../../src/index.js';

/** Whether Debian's redis-server is on PATH (.ci/run installs it). */
export const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;
export const NO_REDIS_REASON = 'skipped: redis-server is not on PATH (apt-get install redis-server)';

/** A real Redis server on a free loopback port, without persistence. */
export class RedisServer {
  port = 0;
  #child: ChildProcess | undefined;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (on the same port as before when restarted) and resolves once it accepts connections. */
  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (data: Buffer) => {
        out += data.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  }

  /** Kills it at once (SIGKILL) and resolves when it is gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One request the provider server saw: the API key it carried and when it arrived (Unix ms). */
export interface SeenRequest {
  key: string;
  at: number;
}

/**
 * A loopback OpenAI-compatible chat server speaking the wire on its own: `down` answers every
 * request 503 (after `delayMs(key)`, with a Retry-After of `retryAfterS` when given), otherwise it streams one SSE chat completion chunk.
 */
export async function chatServer(
  mode: 'up' | 'down',
  delayMs: (key: string) => number = () => 0,
  retryAfterS?: number,
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    // The router's warmup sends OPTIONS / to open a connection: not a request to the provider.
    if (req.method === 'POST') seen.push({ key, at: Date.now() });
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        if (mode === 'down') {
          res.writeHead(503, {
            'content-type': 'application/json',
            ...(retryAfterS !== undefined ? { 'retry-after': String(retryAfterS) } : {}),
          });
          res.end('{"error":{"message":"down"}}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
        res.end('data: [DONE]\n\n');
      }, delayMs(key));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A router config of two chat providers, `down` first (priority), with the fleet's store. */
export function fleetConfig(redisUrl: string, downUrl: string, upUrl: string, apiKey: string) {
  return {
    providers: {
      down: { kind: 'openai-compatible' as const, baseUrl: downUrl, apiKey, chat: { models: { fast: 'm' } } },
      up: { kind: 'openai-compatible' as const, baseUrl: upUrl, apiKey, chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['down', 'up'], strategy: 'priority' as const } },
    health: { store: 'redis' as const, url: redisUrl, keyPrefix: 'test:' },
  };
}

/** Resolves with the reason of the next time `provider`'s breaker opens in `router`. */
export function nextOpening(router: Router, provider: string): Promise<string> {
  return new Promise((resolve) => {
    const off = router.on('breaker', (e) => {
      if (e.provider === provider && e.to === 'open') {
        off();
        resolve(e.reason);
      }
    });
  });
}

/** One chat call (model `fast`, "hi") through `router`: the text it streamed. */
export async function chatOk(router: Router): Promise<string> {
  let text = '';
  for await (const event of router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }))
    if (event.type === 'text-delta') text += event.text;
  return text;
}
