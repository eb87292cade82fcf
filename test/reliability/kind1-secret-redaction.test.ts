/**
 * Kind 1, keys in error text built from provider bytes: a distinct canary key per provider;
 * each server echoes the key it received inside every kind of error it can send (OpenAI/vLLM
 * `data: {"error": ...}` SSE, Anthropic `event: error`, Cartesia SSE and WebSocket
 * `type: "error"`, an HTTP error body, a WebSocket close reason), before and after output. The
 * canary must be in no error field, cause chain, String(), JSON, inspect(), log call, router
 * event or stat, and no server may get another provider's key. Servers speak the wire on their
 * own (loopback).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ConfigError, loadConfig, type Router, type RouterConfig } from '../../src/index.js';
import { chatChunk, drain, httpServer, router, sseFrames, wsServer } from '../cases/wire/servers.js';

const KEY_A = 'canary-key-AAAA-7f3e9c1d5b';
const KEY_B = 'canary-key-BBBB-2a8d4f6e0c';
const KEYS = [KEY_A, KEY_B];

// Spans too: the real OpenTelemetry SDK records every span voxroute makes during these tests.
const exporter = new InMemorySpanExporter();
const tracing = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(tracing);
});
afterAll(async () => {
  trace.disable();
  await tracing.shutdown();
});

/** The finished spans as plain data: name, attributes, status, events with their attributes. */
function spans() {
  return exporter.getFinishedSpans().map((s) => ({
    name: s.name,
    attributes: s.attributes,
    status: s.status,
    events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
  }));
}

/** Everything the caller or an observer can see of a call. */
function observe(r: Router) {
  const seen: unknown[] = [];
  for (const name of ['attempt', 'hedge', 'first-chunk', 'fallback', 'error', 'breaker'] as const)
    r.on(name, (e) => seen.push(e));
  return seen;
}

function expectNoCanary(label: string, things: unknown[]) {
  for (const thing of things) {
    const views = [
      inspect(thing, { depth: 12, showHidden: true }),
      safeJson(thing),
      thing instanceof Error ? `${String(thing)}\n${thing.stack}` : String(thing),
    ];
    let cause: unknown = thing;
    for (let i = 0; i < 10 && cause instanceof Error; i++) {
      views.push(cause.message, String(cause.stack), safeJson(cause));
      cause = cause.cause;
    }
    for (const view of views)
      for (const key of KEYS) expect(view, `${label}: ${view.slice(0, 200)}`).not.toContain(key);
  }
}

function safeJson(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_k, v) =>
        v instanceof Error ? { ...v, message: v.message, stack: v.stack, cause: v.cause } : v,
      ) ?? ''
    );
  } catch {
    return '';
  }
}

/** The key a request carried (x-api-key, Bearer, or query). */
function keyOf(req: IncomingMessage): string {
  const auth = req.headers.authorization?.replace(/^Bearer /, '');
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  return (
    (req.headers['x-api-key'] as string | undefined) ??
    auth ??
    query.get('api_key') ??
    query.get('access_token') ??
    ''
  );
}

type Echo = (req: IncomingMessage, res: ServerResponse, key: string) => void;

const sse = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(body);
};

const echoes: Record<string, { capability: 'chat' | 'tts'; kind: string; answer: Echo; after?: boolean }> = {
  'openai/vLLM SSE data error before output': {
    capability: 'chat',
    kind: 'openai-compatible',
    answer: (_q, res, key) =>
      sse(
        res,
        sseFrames([{ error: { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' } }]),
      ),
  },
  'openai/vLLM SSE data error after output': {
    capability: 'chat',
    kind: 'openai-compatible',
    after: true,
    answer: (_q, res, key) =>
      sse(
        res,
        sseFrames([
          chatChunk({ content: 'Hello' }),
          { error: { message: `key ${key} revoked`, type: key, code: 500 } },
        ]),
      ),
  },
  'HTTP error body': {
    capability: 'chat',
    kind: 'openai-compatible',
    answer: (_q, res, key) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `upstream rejected ${key}`, type: key, code: key } })),
  },
  'anthropic event: error before output': {
    capability: 'chat',
    kind: 'anthropic',
    answer: (_q, res, key) =>
      sse(
        res,
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: `Overloaded for ${key}` } })}\n\n`,
      ),
  },
  'anthropic event: error after output': {
    capability: 'chat',
    kind: 'anthropic',
    after: true,
    answer: (_q, res, key) =>
      sse(
        res,
        [
          ['message_start', { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } }],
          [
            'content_block_start',
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          ],
          [
            'content_block_delta',
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
          ],
          ['error', { type: 'error', error: { type: 'api_error', message: `bad key ${key}` } }],
        ]
          .map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`)
          .join(''),
      ),
  },
  'cartesia SSE type error': {
    capability: 'tts',
    kind: 'cartesia-sse',
    answer: (_q, res, key) =>
      sse(
        res,
        sseFrames([
          { type: 'error', done: true, status_code: 500, title: key, message: `bad ${key}`, error_code: key },
        ]),
      ),
  },
};

function providerConfig(kind: string, url: string, key: string, capability: 'chat' | 'tts') {
  if (kind === 'anthropic')
    return { kind: 'anthropic' as const, baseUrl: url, apiKey: key, chat: { models: { fast: 'claude' } } };
  if (kind === 'cartesia-sse' || kind === 'cartesia-ws')
    return {
      kind: 'cartesia' as const,
      baseUrl: url,
      apiKey: key,
      tts: {
        voices: { agent: 'v1' },
        transport: kind === 'cartesia-sse' ? ('sse' as const) : ('websocket' as const),
      },
    };
  return {
    kind: 'openai-compatible' as const,
    baseUrl: url,
    apiKey: key,
    ...(capability === 'chat'
      ? { chat: { models: { fast: 'gpt' } } }
      : { tts: { voices: { agent: 'alloy' } } }),
  };
}

function twoProviders(a: object, b: object, capability: 'chat' | 'tts'): RouterConfig {
  const route = {
    providers: ['a', 'b'],
    strategy: 'priority' as const,
    firstChunkTimeoutMs: false as const,
    midStream: 'error' as const,
  };
  return { providers: { a, b } as RouterConfig['providers'], routes: { [capability]: route } };
}

async function runCall(r: Router, capability: 'chat' | 'tts') {
  const stream =
    capability === 'chat'
      ? r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] })
      : r.tts({ text: 'Hello there.', voice: 'agent' });
  const { error } = await drain(stream as AsyncIterable<unknown>);
  const result = await (stream.result as Promise<unknown>).catch((e: unknown) => e);
  return { error, result };
}

describe('kind 1: no configured key in any error built from provider bytes', () => {
  it.each(Object.entries(echoes))('%s', async (label, cell) => {
    const got: Record<string, string[]> = { a: [], b: [] };
    const serve = (name: 'a' | 'b') =>
      httpServer(async (req, res) => {
        for await (const _ of req) {
          // read the body
        }
        const key = keyOf(req);
        got[name]!.push(key);
        cell.answer(req, res, key);
      });
    const [a, b] = [await serve('a'), await serve('b')];
    const logs: unknown[] = [];
    const logger = {
      warn: (m: string, at?: unknown) => logs.push([m, at]),
      debug: (m: string, at?: unknown) => logs.push([m, at]),
    };
    const r = router(
      twoProviders(
        providerConfig(cell.kind, a.url, KEY_A, cell.capability),
        providerConfig(cell.kind, b.url, KEY_B, cell.capability),
        cell.capability,
      ),
      { logger },
    );
    const events = observe(r);
    await r.warmup(); // waits for @opentelemetry/api, so the call is traced
    exporter.reset();
    const { error, result } = await runCall(r, cell.capability);
    // The provider really echoed its own key, and no server got another's.
    // (warmup()'s preconnect request carries no key: left out.)
    expect(got.a!.filter(Boolean)).toEqual([KEY_A]);
    expect(got.b!.filter(Boolean)).toEqual(cell.after ? [] : [KEY_B]);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toContain('[redacted]');
    const recorded = spans();
    expect(recorded.length).toBeGreaterThan(0);
    // The call's span ended in error (its attributes and events name the error, never its text).
    expect(recorded.map((x) => x.status.code)).toEqual([2]);
    expectNoCanary(label, [error, result, events, logs, r.stats(), recorded]);
  });

  it('cartesia WebSocket type error and close reason', async () => {
    const mode: Record<string, 'error' | 'close'> = {};
    const make = (name: string) =>
      wsServer((ws: WebSocket, req) => {
        const key = keyOf(req);
        ws.on('message', (data) => {
          if (mode[name] === 'close') ws.close(1011, `internal: ${key}`);
          else {
            const context = (JSON.parse(String(data)) as { context_id?: string }).context_id;
            ws.send(
              JSON.stringify({
                type: 'error',
                context_id: context,
                done: true,
                status_code: 500,
                title: key,
                message: `bad ${key}`,
                error_code: key,
              }),
            );
          }
        });
      });
    for (const m of ['error', 'close'] as const) {
      mode.a = m;
      mode.b = m;
      const [a, b] = [await make('a'), await make('b')];
      const r = router(
        twoProviders(
          providerConfig('cartesia-ws', a.url, KEY_A, 'tts'),
          providerConfig('cartesia-ws', b.url, KEY_B, 'tts'),
          'tts',
        ),
      );
      const events = observe(r);
      async function* text() {
        yield 'Hello there.';
      }
      const stream = r.tts({ text: text(), voice: 'agent' });
      const { error } = await drain(stream);
      expect(error).toBeInstanceOf(Error);
      expect(a.connections).toBeGreaterThan(0);
      expectNoCanary(`cartesia ws ${m}`, [error, events, r.stats(), spans()]);
      await r.close();
    }
  });

  it('a config module that throws with a key in its message: ConfigError without it', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'voxroute-kind1-'));
    const file = join(dir, 'voxroute.config.mjs');
    process.env.VOXROUTE_CANARY_API_KEY = KEY_A;
    try {
      await writeFile(
        file,
        `throw new Error('cannot use key ' + process.env.VOXROUTE_CANARY_API_KEY + ' or sk-live-${KEY_B}');\n`,
      );
      const error = await loadConfig(file).catch((e: unknown) => e);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect(String(error)).toContain('[redacted]');
      expectNoCanary('config module', [error]);
    } finally {
      delete process.env.VOXROUTE_CANARY_API_KEY;
    }
  });
});
