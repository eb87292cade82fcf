/**
 * Strategy `weighted` with extreme weights. Weights near the largest finite number (1e308 each)
 * passed validation but summed to Infinity, so every draw picked the last provider: they are now
 * divided by the largest before the draw and split as written. A route whose every provider has
 * weight 0 had no draw to make (it too picked the last provider every time): it is a
 * ConfigError at the `weights` that set the zeros. Weight 0 beside a weight above 0 stays valid:
 * that provider is drawn only after the others. Draws come from an injected random source, so
 * each pick is exact.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, createRouter, parseConfig } from '../../src/index.js';
import { orderCandidates } from '../../src/routing/select.js';

/** A random source that returns `values` in turn (and again from the start). */
const draws = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('weighted draws with extreme weights', () => {
  it('weights of 1e308 each split half and half, as 1 and 1 do', () => {
    const huge = [
      { index: 0, scoreMs: 50, lastTriedAt: 0, weight: 1e308 },
      { index: 1, scoreMs: 50, lastTriedAt: 0, weight: 1e308 },
    ];
    expect(orderCandidates(huge, { strategy: 'weighted', now: 0, random: draws(0.49, 0) })).toEqual([0, 1]);
    expect(orderCandidates(huge, { strategy: 'weighted', now: 0, random: draws(0.51, 0) })).toEqual([1, 0]);
    // 3e307 against 1e308: a share of 0.3 to 1, so a draw of 0.2 x 1.3 = 0.26 < 0.3 picks index 0.
    const uneven = [
      { index: 0, scoreMs: 50, lastTriedAt: 0, weight: 3e307 },
      { index: 1, scoreMs: 50, lastTriedAt: 0, weight: 1e308 },
    ];
    expect(orderCandidates(uneven, { strategy: 'weighted', now: 0, random: draws(0.2, 0) })).toEqual([0, 1]);
    expect(orderCandidates(uneven, { strategy: 'weighted', now: 0, random: draws(0.25, 0) })).toEqual([1, 0]);
  });

  it('weight 0 is drawn after every weight above 0; those left with 0 keep the listed order', () => {
    const cands = [
      { index: 0, scoreMs: 50, lastTriedAt: 0, weight: 0 },
      { index: 1, scoreMs: 50, lastTriedAt: 0, weight: 2 },
      { index: 2, scoreMs: 50, lastTriedAt: 0, weight: 0 },
    ];
    for (const r of [0, 0.5, 0.999]) {
      expect(orderCandidates(cands, { strategy: 'weighted', now: 0, random: draws(r) })).toEqual([1, 0, 2]);
    }
  });
});

describe('a weighted route whose every provider has weight 0 is a ConfigError', () => {
  const providers = {
    a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', chat: { models: { f: 'm' } } },
    b: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', chat: { models: { f: 'm' } } },
  };
  const MESSAGE =
    'gives every provider of the route weight 0: give at least one a weight above 0 (0 draws a provider only after those with a weight)';
  const issuesOf = (config: object) => {
    try {
      parseConfig(config);
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
      return (error as ConfigError).issues;
    }
    throw new Error('expected a ConfigError');
  };

  it("at the route's own weights", () => {
    const config = {
      providers,
      routes: { chat: { providers: ['a', 'b'], strategy: 'weighted', weights: { a: 0, b: 0 } } },
    };
    expect(issuesOf(config)).toEqual([{ path: ['routes', 'chat', 'weights'], message: MESSAGE }]);
    expect(() => createRouter(config as never)).toThrow('routes.chat.weights: gives every provider');
  });

  it('at defaults.routes.weights when the zeros (and the strategy) come from there', () => {
    const config = {
      providers,
      routes: { chat: { providers: ['a', 'b'] } },
      defaults: { routes: { strategy: 'weighted', weights: { a: 0, b: 0 } } },
    };
    expect(issuesOf(config)).toEqual([{ path: ['defaults', 'routes', 'weights'], message: MESSAGE }]);
  });

  it('valid: a weight above 0 beside the zeros (1 for a provider no weights name), or another strategy', () => {
    const cases: Array<[object, unknown]> = [
      [
        { providers, routes: { chat: { providers: ['a', 'b'], strategy: 'weighted', weights: { a: 0 } } } },
        ['weighted', { a: 0 }],
      ],
      [
        {
          providers,
          routes: { chat: { providers: ['a', 'b'], strategy: 'weighted' } },
          defaults: { routes: { weights: { a: 0 } } },
        },
        ['weighted', { a: 0 }],
      ],
      [
        {
          providers,
          routes: { chat: { providers: ['a', 'b'], strategy: 'priority', weights: { a: 0, b: 0 } } },
        },
        ['priority', { a: 0, b: 0 }],
      ],
    ];
    for (const [config, route] of cases) {
      const chat = parseConfig(config).routes.chat as unknown as { strategy: string; weights: unknown };
      expect([chat.strategy, chat.weights]).toEqual(route);
    }
  });

  it("the route's own zero wins over a default weight above 0", () => {
    const config = {
      providers,
      routes: { chat: { providers: ['a', 'b'], strategy: 'weighted', weights: { a: 0, b: 0 } } },
      defaults: { routes: { weights: { b: 1 } } },
    };
    expect(issuesOf(config)).toEqual([{ path: ['routes', 'chat', 'weights'], message: MESSAGE }]);
  });
});

describe('a router with weights of 1e308 each sends calls as drawn', () => {
  const servers: Server[] = [];
  const origins: string[] = [];
  beforeAll(async () => {
    for (const text of ['A', 'B']) {
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { choices: [{ index: 0, delta: { content: text }, finish_reason: 'stop' }] };
        res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      servers.push(server);
      origins.push(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    }
  });
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it('draws below 0.5 go to a, the others to b', async () => {
    const router = createRouter(
      {
        providers: {
          a: { kind: 'openai-compatible', baseUrl: `${origins[0]}/v1`, chat: { models: { f: 'm' } } },
          b: { kind: 'openai-compatible', baseUrl: `${origins[1]}/v1`, chat: { models: { f: 'm' } } },
        },
        routes: { chat: { providers: ['a', 'b'], strategy: 'weighted', weights: { a: 1e308, b: 1e308 } } },
      },
      // Two draws per call (one per pick): the first decides.
      { random: draws(0.1, 0, 0.9, 0, 0.4, 0, 0.6, 0) },
    );
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      let text = '';
      for await (const event of router.chat({ model: 'f', messages: [{ role: 'user', content: 'q' }] }))
        if (event.type === 'text-delta') text += event.text;
      answers.push(text);
    }
    expect(answers).toEqual(['A', 'B', 'A', 'B']);
    await router.close();
  });
});
