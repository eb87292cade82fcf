/**
 * A SageMaker endpoint (or the load balancer in front of it) that drops an idle keep-alive
 * connection: the next request, sent on that pooled socket, is reset before a byte of answer.
 * Nothing reached the model, so the request is sent again on a connection opened for it, as the
 * HTTP transport of every other provider does: the call is served by the endpoint, with one
 * attempt, no fallback and no error charged. Before, the AWS SDK's client (its own keep-alive
 * agents, `maxAttempts: 1`) reported the reset as the provider's network failure: every second
 * call fell back or failed. The server speaks the event-stream wire on its own (node:http on
 * loopback).
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { sageMakerTts } from './wire/sagemaker-response.js';
import { concat, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const AUDIO = pcmSignal(1200, 24_000);

describe('SageMaker: a pooled connection dropped while idle', () => {
  it('each request that meets a dropped socket is sent again on a new connection: served by the endpoint, no error', async () => {
    const perSocket = new WeakMap<Socket, number>();
    const log: string[] = [];
    const a = await httpServer(async (req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      if (n >= 2) {
        log.push('dropped');
        req.socket.destroy();
        return;
      }
      log.push('answered');
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.end(payloadPart(AUDIO));
    });
    const r = router({
      providers: {
        a: sageMakerTts(a.url, 'response'),
        b: {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:9/v1',
          tts: { voices: { agent: 'alloy' } },
        },
      },
      routes: { tts: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
    });
    const served: string[] = [];
    for (let i = 0; i < 3; i++) {
      const stream = r.tts({ text: `Call ${i}.`, voice: 'agent' });
      const { items, error } = await drain(stream);
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
      const result = await stream.result;
      served.push(`${result.provider}:${result.attempts.length}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(served).toEqual(['a:1', 'a:1', 'a:1']);
    expect(log).toEqual(['answered', 'dropped', 'answered', 'dropped', 'answered']);
    const stats = r.stats().providers.find((p) => p.provider === 'a');
    expect([stats?.errors, stats?.breaker]).toEqual([0, 'closed']);
  });
});
