import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, type ChatEvent, createRouter, ProtocolError, type Router } from '../../src/index.js';
import { drain, type LoopbackServer, startLoopbackServer } from '../helpers/index.js';

const delta = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const stop = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`;
const request = { model: 'fast', messages: [{ role: 'user' as const, content: 'A table for four.' }] };

const servers: LoopbackServer[] = [];
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  router = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  const server = await startLoopbackServer((_req, res) => handler(res));
  servers.push(server);
  return `${server.origin}/v1`;
}

function routerOf(urls: Record<string, string>): Router {
  router = createRouter({
    providers: Object.fromEntries(
      Object.entries(urls).map(([name, baseUrl]) => [
        name,
        { kind: 'openai-compatible' as const, baseUrl, chat: { models: { fast: 'llama' } } },
      ]),
    ),
    routes: { chat: { providers: Object.keys(urls), strategy: 'priority' } },
  });
  return router;
}

const texts = (items: ChatEvent[]) => items.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));

describe('router.chat() over SSE deltas read by plain calls', () => {
  it('a malformed frame before any output is a ProtocolError and a fallback; the next provider streams every delta in order', async () => {
    const bad = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices": [\n\n');
    });
    const good = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta('Booked ') + delta('for ') + delta('four, café 👋.'));
      res.end(`${stop}data: [DONE]\n\n`);
    });
    const r = routerOf({ bad, good });
    const fallbacks: string[] = [];
    r.on('fallback', (e) => fallbacks.push(`${e.provider}->${e.next}`));
    const stream = r.chat(request);
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(texts(items)).toEqual(['Booked ', 'for ', 'four, café 👋.']);
    expect(items.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const result = await stream.result;
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['bad', 'failed'],
      ['good', 'success'],
    ]);
    const first = result.attempts[0]!.error as ProtocolError;
    expect(ProtocolError.isInstance(first)).toBe(true);
    expect(first.message).toBe('Server-sent event data is not JSON (13 characters)');
    expect(first.partialOutput).toBe(false);
    expect(fallbacks).toEqual(['bad->good']);
  });

  it("the caller's abort during a pending read rejects it with AbortError and closes the provider's connection", async () => {
    let closed!: Promise<unknown>;
    const slow = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(delta('Hel'));
      closed = once(res, 'close');
      // the rest never comes
    });
    const r = routerOf({ slow });
    const controller = new AbortController();
    const iterator = r.chat({ ...request, signal: controller.signal })[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'Hel' } });
    const pending = iterator.next();
    controller.abort();
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(AbortError.isInstance(error)).toBe(true);
    await closed;
  });
});
