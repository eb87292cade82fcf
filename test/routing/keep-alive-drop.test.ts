import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { stalePoolHandler } from '../helpers/stale-pool-server.js';

const PCM_24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;

describe('keep-alive drop (router): a server that drops every pooled socket on its second request', () => {
  let server: http.Server | undefined;
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('serves five calls in a row from that provider (each retried on a fresh connection), no fallback, breaker closed', async () => {
    const perSocket = new WeakMap<Socket, number>();
    let speechRequests = 0;
    server = http.createServer((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n >= 2) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        if (req.url?.endsWith('/audio/speech')) speechRequests++;
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.end(Buffer.alloc(480));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const other = 'http://127.0.0.1:9'; // never reached when a serves every call
    router = createRouter({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${origin}/v1`,
          tts: { model: 'm', voices: { v: 'alloy' } },
        },
        b: { kind: 'openai-compatible', baseUrl: `${other}/v1`, tts: { model: 'm', voices: { v: 'alloy' } } },
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    await router.warmup(); // the warm-up request is each pooled socket's first
    const served: string[] = [];
    for (let i = 0; i < 5; i++) {
      const stream = router.tts({ text: `call ${i}`, voice: 'v', format: PCM_24K });
      let bytes = 0;
      for await (const chunk of stream) bytes += chunk.data.byteLength;
      const result = await stream.result;
      served.push(`${result.provider}:${result.attempts.length}:${bytes}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(served).toEqual(['a:1:480', 'a:1:480', 'a:1:480', 'a:1:480', 'a:1:480']);
    expect(speechRequests).toBe(5);
    const a = router.stats().providers.find((p) => p.provider === 'a');
    expect([a?.errors, a?.breaker]).toEqual([0, 'closed']);
  });

  it('serves every call from a lone provider after all its pooled sockets are dropped at once, no error counted', async () => {
    let served = 0;
    const { state, handle } = stalePoolHandler((_req, res) => {
      const n = ++served;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: {"choices":[{"index":0,"delta":{"content":"A${n}"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`,
      );
    });
    state.holdUntil = 3;
    const log = state.log;
    server = http.createServer(handle);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    router = createRouter({
      providers: { a: { kind: 'openai-compatible', baseUrl: `${origin}/v1`, chat: { models: { m: 'm' } } } },
      routes: { chat: { providers: ['a'], strategy: 'priority' } },
    });
    const chat = async () => {
      const stream = router!.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'm' });
      let text = '';
      for await (const e of stream) if (e.type === 'text-delta') text += e.text;
      const result = await stream.result;
      return `${result.provider}:${result.attempts.length}:${text}`;
    };
    // Three concurrent calls leave three idle pooled sockets; then every one of them is dropped
    // on its reuse (a load balancer's idle reset, a restarted server).
    expect(await Promise.all([chat(), chat(), chat()])).toEqual(['a:1:A1', 'a:1:A2', 'a:1:A3']);
    await new Promise((resolve) => setImmediate(resolve));
    state.dropReused = true;
    log.length = 0;
    const calls: string[] = [];
    for (let i = 0; i < 5; i++) calls.push(await chat());
    expect(calls).toEqual(['a:1:A4', 'a:1:A5', 'a:1:A6', 'a:1:A7', 'a:1:A8']);
    // Each request that met a dropped socket (reuse) was retried at once on a new connection
    // (fresh), never on another of the dropped sockets.
    expect(log).toEqual(['reuse', 'fresh', 'fresh', 'reuse', 'fresh', 'reuse', 'fresh', 'fresh']);
    const a = router.stats().providers.find((p) => p.provider === 'a');
    expect([a?.errors, a?.breaker]).toEqual([0, 'closed']);
  });
});
