/**
 * A hedged race where one side's provider refuses the request (HTTP 400: "max_tokens too large
 * for this model") while the other side has already accepted it (HTTP 200, SSE headers sent):
 * the 400 ended the call and cancelled the healthy side, so turning a hedge on made a call
 * fail that succeeds without one. A request error of one attempt now ends only that attempt
 * while another is running; no other candidate is started for it, and the call ends with it only
 * when the other side fails too. Loopback servers that speak the OpenAI SSE wire on their own.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatEvent, createRouter, ProviderError, type Router } from '../../src/index.js';
import { deferred } from '../helpers/deferred.js';
import { type LoopbackServer, sendJson, startLoopbackServer } from '../helpers/loopback.js';

const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  frame({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

describe('hedge request error on the other side', () => {
  let servers: LoopbackServer[] = [];
  let router: Router | undefined;
  afterEach(async () => {
    await router?.close();
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  /**
   * a: 200 and SSE headers at once, the reply (or with `aFails`, a 503) once the router has
   * taken b's failure (its `error` event); b: 400. The route hedges after 1 ms.
   */
  async function setup(aFails: boolean) {
    const { promise: bDone, resolve: bFailed } = deferred();
    const a = await startLoopbackServer(async (_, res: ServerResponse) => {
      if (aFails) {
        await bDone;
        sendJson(res, 503, { error: { message: 'overloaded' } });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      await bDone;
      res.end(
        `${chunk({ role: 'assistant', content: 'Table booked.' })}${chunk({}, 'stop')}data: [DONE]\n\n`,
      );
    });
    const b = await startLoopbackServer((_, res) => {
      sendJson(res, 400, {
        error: { message: 'max_tokens too large for this model', type: 'invalid_request_error' },
      });
    });
    const c = await startLoopbackServer((_, res) =>
      sendJson(res, 500, { error: { message: 'never asked' } }),
    );
    servers = [a, b, c];
    const provider = (s: LoopbackServer) => ({
      kind: 'openai-compatible' as const,
      baseUrl: `${s.origin}/v1`,
      chat: { models: { fast: 'm' } },
    });
    router = createRouter({
      providers: { a: provider(a), b: provider(b), c: provider(c) },
      routes: {
        chat: { providers: ['a', 'b', 'c'], strategy: 'priority', hedge: { after: 1, maxShare: 1 } },
      },
    });
    router.on('error', (e) => {
      if (e.provider === 'b') bFailed();
    });
    const stream = router.chat({ messages: [{ role: 'user', content: 'book' }], model: 'fast' });
    const events: ChatEvent[] = [];
    let error: unknown;
    try {
      for await (const e of stream) events.push(e);
    } catch (e) {
      error = e;
    }
    return { stream, events, error, c };
  }

  it('the side that accepted the request answers; the call succeeds as it does without a hedge', async () => {
    const { stream, events, error, c } = await setup(false);
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Table booked.',
    ]);
    const result = await stream.result;
    expect(result.provider).toBe('a');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'success'],
      ['b', 'failed'],
    ]);
    expect(c.requests).toHaveLength(0);
  });

  it('both sides fail: the call ends with the 400, and the third candidate is never asked', async () => {
    const { error, c } = await setup(true);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([(error as ProviderError).status, (error as ProviderError).provider]).toEqual([400, 'b']);
    expect(c.requests).toHaveLength(0);
  });
});
