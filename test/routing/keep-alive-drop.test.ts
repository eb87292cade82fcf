import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';

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
});
