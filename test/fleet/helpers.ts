import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  type AddressInfo,
  connect as connectNet,
  createServer as createNetServer,
  type Socket,
} from 'node:net';
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

  /**
   * Starts it (on the same port as before when restarted) and resolves once it accepts
   * connections. The first start takes a free port below the ephemeral range (see
   * {@link redisPort}) and, should another test's Redis have taken that port meanwhile, tries
   * another.
   */
  async start(): Promise<void> {
    if (this.port !== 0) return this.#spawn();
    for (let attempt = 1; ; attempt++) {
      this.port = await redisPort();
      try {
        return await this.#spawn();
      } catch (error) {
        if (attempt === 5 || !/Address already in use/i.test(String(error))) throw error;
      }
    }
  }

  #spawn(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.#child = child;
    return new Promise<void>((resolve, reject) => {
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

/** The first port of the kernel's ephemeral range (Linux default 32768). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 20_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A free loopback port for Redis, drawn below the ephemeral range. Redis cannot listen on port
 * 0, so the port is chosen first and bound by redis-server later, and again after a kill when
 * a test restarts it: a port of the ephemeral range (what listen(0) gives) could meanwhile be
 * taken by any test's listen(0) or outgoing connection in the parallel workers, and Redis
 * would then fail to start. Below that range only a fixed-port listener can collide, which the
 * check here sees.
 */
export async function redisPort(): Promise<number> {
  const low = 10_000;
  const high = ephemeralLow();
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low));
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}

/** One request the provider server saw: the API key it carried and when it arrived (Unix ms). */
export interface SeenRequest {
  key: string;
  at: number;
}

/**
 * A loopback OpenAI-compatible chat server speaking the wire on its own: `down` answers every
 * request 503 (after `delayMs(key)`: a time in ms, or a promise to wait for; with a Retry-After
 * of `retryAfterS` when given), otherwise it streams one SSE chat completion chunk.
 */
export async function chatServer(
  mode: 'up' | 'down',
  delayMs: (key: string) => number | Promise<void> = () => 0,
  retryAfterS?: number,
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    // The router's warmup sends OPTIONS / to open a connection: not a request to the provider.
    if (req.method === 'POST') seen.push({ key, at: Date.now() });
    req.resume();
    req.on('end', () => {
      const delay = delayMs(key);
      const answer = () => {
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
      };
      if (typeof delay === 'number') setTimeout(answer, delay);
      else void delay.then(answer);
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

/**
 * A TCP proxy in front of a Redis server on loopback `port`, to make the store hang as a real one
 * can while its sockets stay open (a stalled or partitioned server: no reset, no reply).
 * `hold()` keeps every reply from now on; `holdAfterReady()` keeps the replies that follow each
 * connection's ready check (the INFO reply), so that the connection becomes ready and its next
 * commands time out; `release()` delivers what was kept and forwards again.
 */
export async function redisProxy(port: number): Promise<{
  url: string;
  hold: () => void;
  holdAfterReady: () => void;
  release: () => void;
  close: () => Promise<void>;
}> {
  let mode: 'pass' | 'hold' | 'after-ready' = 'pass';
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    const upstream = connectNet(port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let ready = false;
    client.on('data', (data) => upstream.write(data));
    upstream.on('data', (data: Buffer) => {
      const keep = mode === 'hold' || (mode === 'after-ready' && ready);
      if (data.includes('redis_version')) ready = true;
      if (keep) held.push(() => client.writable && client.write(data));
      else client.write(data);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${own}`,
    hold: () => {
      mode = 'hold';
    },
    holdAfterReady: () => {
      mode = 'after-ready';
    },
    release: () => {
      mode = 'pass';
      for (const deliver of held.splice(0)) deliver();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
