/**
 * A name the config's author chooses (a provider, route, model, voice or header, a key of
 * `weights`/`costs`) is never lost. `__proto__` cannot be an entry of a JavaScript object built
 * by assignment, and the schema built its records so: a provider, model, route... named
 * `__proto__` (an own key from JSON.parse or YAML, or an object literal's `__proto__: {...}`)
 * was dropped without a word. It is now a ConfigError at its path ("reserved name"), from
 * parseConfig, loadConfig (JSON, YAML, JavaScript), createRouter and a config the testing kit
 * pointed at its mocks. The other names of Object.prototype's members (`constructor`,
 * `prototype`, `hasOwnProperty`, `toString`, `valueOf`) are ordinary names, kept everywhere and
 * looked up as own names: a `weighted` or `cost` route no longer reads an inherited function as
 * the weight or cost of a provider so named (it drew the wrong provider). The chat servers are
 * loopback servers speaking OpenAI's chat SSE on their own (node:http).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAMED_RECORDS } from '../../src/config/reserved-names.js';
import {
  ConfigError,
  configJsonSchema,
  createRouter,
  loadConfig,
  parseConfig,
  type RouterConfig,
} from '../../src/index.js';
import { startMockProviders } from '../../src/testing/index.js';
import { answerChat, drain, httpServer, readBody, router } from './wire/servers.js';

const PROVIDER = {
  kind: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:9/v1',
  chat: { models: { fast: 'm' } },
};
const MESSAGES = [{ role: 'user' as const, content: 'Book a table for four.' }];
const MEMBERS = ['constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'] as const;

/** The message of the reserved-name issue for `names` ('a provider name', ...). */
const reserved = (names: string) =>
  `reserved name: '__proto__' cannot be ${names} (JavaScript takes it for the object's prototype, not an entry); choose another name`;

/** A valid config, parsed from JSON text that has `"__proto__": value` at `path`. */
function jsonWithProto(path: readonly string[], value: unknown): unknown {
  // A deep copy: PROVIDER's objects stay as they are.
  const config = structuredClone({
    providers: { a: { ...PROVIDER, headers: { 'X-Team': 'voice' }, tts: { voices: { agent: 'v' } } } },
    routes: { chat: { providers: ['a'], weights: { a: 1 }, costs: { a: 1 } } },
    defaults: { routes: { weights: { a: 1 }, costs: { a: 1 } } },
  });
  let at: Record<string, unknown> = config;
  for (const key of path) at = at[key] as Record<string, unknown>;
  Object.defineProperty(at, '__proto__', { value, enumerable: true, writable: true, configurable: true });
  // The JSON text holds the key (JSON.stringify writes own keys); JSON.parse makes it an own key.
  const text = JSON.stringify(config);
  expect(text).toContain('"__proto__":');
  return JSON.parse(text);
}

/** The issues of the ConfigError `run` throws (fails when it does not throw one). */
function issuesOf(run: () => unknown): ConfigError['issues'] {
  try {
    run();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

const PLACES: Array<[string, string[], unknown, string]> = [
  ['a provider', ['providers'], PROVIDER, 'a provider name'],
  ['a header', ['providers', 'a', 'headers'], 'x', 'a header name'],
  ['a model', ['providers', 'a', 'chat', 'models'], 'm2', 'a model name'],
  ['a voice', ['providers', 'a', 'tts', 'voices'], 'v2', 'a voice name'],
  ['a route', ['routes'], { capability: 'chat', providers: ['a'] }, 'a route name'],
  ['a route weight', ['routes', 'chat', 'weights'], 2, 'a provider name'],
  ['a route cost', ['routes', 'chat', 'costs'], 2, 'a provider name'],
  ['a default weight', ['defaults', 'routes', 'weights'], 2, 'a provider name'],
  ['a default cost', ['defaults', 'routes', 'costs'], 2, 'a provider name'],
];

describe('reserved-config-names: no name of the config is lost', () => {
  for (const [what, path, value, names] of PLACES) {
    it(`reserved-config-names: ${what} named __proto__ (JSON.parse) is a ConfigError at ${path.join('.')}.__proto__`, () => {
      const input = jsonWithProto(path, value);
      expect(
        Object.hasOwn(
          path.reduce((o, k) => (o as Record<string, object>)[k]!, input as object),
          '__proto__',
        ),
      ).toBe(true);
      expect(issuesOf(() => parseConfig(input))).toEqual([
        { path: [...path, '__proto__'], message: reserved(names) },
      ]);
      expect(issuesOf(() => createRouter(input as RouterConfig))).toEqual([
        { path: [...path, '__proto__'], message: reserved(names) },
      ]);
    });
  }

  it('reserved-config-names: every record of the schema (a map keyed by names) is checked', () => {
    // The records of the JSON Schema: objects whose keys are free (`additionalProperties`).
    const found = new Set<string>();
    const walk = (node: unknown, path: string[]) => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node)) {
        for (const item of node) walk(item, path);
        return;
      }
      const n = node as Record<string, unknown>;
      // A record's entries, also the ones it names (routes.tts), are at `*`.
      const record = typeof n.additionalProperties === 'object' && n.propertyNames !== undefined;
      if (record) {
        found.add(path.join('.'));
        walk(n.additionalProperties, [...path, '*']);
      }
      for (const [key, child] of Object.entries((n.properties as object | undefined) ?? {}))
        walk(child, [...path, record ? '*' : key]);
      for (const key of ['anyOf', 'oneOf', 'allOf']) walk(n[key], path);
    };
    walk(configJsonSchema(), []);
    expect([...found].sort()).toEqual(NAMED_RECORDS.map((r) => r.path.join('.')).sort());
  });

  it('reserved-config-names: a JSON file and a YAML file naming a provider or a voice __proto__', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vox-reserved-'));
    const json = join(dir, 'voxroute.config.json');
    writeFileSync(
      json,
      `{"providers":{"__proto__":${JSON.stringify(PROVIDER)},"a":${JSON.stringify(PROVIDER)}},"routes":{"chat":{"providers":["a"]}}}`,
    );
    const yaml = join(dir, 'voxroute.config.yaml');
    writeFileSync(
      yaml,
      [
        'providers:',
        '  a:',
        '    kind: openai-compatible',
        '    baseUrl: http://127.0.0.1:9/v1',
        '    tts:',
        '      voices: { agent: af_heart, __proto__: am_adam }',
        'routes:',
        '  tts: { providers: [a] }',
        '',
      ].join('\n'),
    );
    for (const [file, path, names] of [
      [json, ['providers', '__proto__'], 'a provider name'],
      [yaml, ['providers', 'a', 'tts', 'voices', '__proto__'], 'a voice name'],
    ] as const) {
      const error = await loadConfig(file).catch((e: unknown) => e);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect([(error as ConfigError).source, (error as ConfigError).issues]).toEqual([
        file,
        [{ path, message: reserved(names) }],
      ]);
    }
  });

  it("reserved-config-names: an object literal's `__proto__: {...}` in a JavaScript config", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vox-reserved-js-'));
    const file = join(dir, 'voxroute.config.mjs');
    writeFileSync(
      file,
      `const p = ${JSON.stringify(PROVIDER)};
export default {
  providers: { a: p, __proto__: { ...p, chat: { models: { big: 'm2' } } } },
  routes: { chat: { providers: ['a'] } },
};
`,
    );
    const error = await loadConfig(file).catch((e: unknown) => e);
    expect((error as ConfigError).issues).toEqual([
      { path: ['providers', '__proto__'], message: reserved('a provider name') },
    ]);
    // The same written in code: a model map.
    const models = { fast: 'm', __proto__: { big: 'm2' } };
    expect(
      issuesOf(() =>
        parseConfig({
          providers: { a: { ...PROVIDER, chat: { models } } },
          routes: { chat: { providers: ['a'] } },
        }),
      ),
    ).toEqual([
      { path: ['providers', 'a', 'chat', 'models', '__proto__'], message: reserved('a model name') },
    ]);
  });

  it('reserved-config-names: the testing kit passes a provider named __proto__ on, createRouter refuses it', async () => {
    const input = JSON.parse(
      `{"providers":{"__proto__":${JSON.stringify(PROVIDER)},"a":${JSON.stringify(PROVIDER)}},"routes":{"chat":{"providers":["a"]}}}`,
    ) as RouterConfig;
    const mocks = await startMockProviders(input);
    try {
      expect(Object.keys(mocks.mocks)).toEqual(['__proto__', 'a']);
      expect(issuesOf(() => createRouter(mocks.config))).toEqual([
        { path: ['providers', '__proto__'], message: reserved('a provider name') },
      ]);
    } finally {
      await mocks.close();
    }
  });

  it('reserved-config-names: names of Object.prototype members are kept wherever a name is a key', () => {
    const names = Object.fromEntries(MEMBERS.map((m) => [m, `id-${m}`]));
    const headers = Object.fromEntries(MEMBERS.map((m) => [m, `h-${m}`]));
    const amounts = Object.fromEntries(MEMBERS.map((m, i) => [m, i + 1]));
    const config = parseConfig({
      providers: Object.fromEntries(
        MEMBERS.map((m) => [m, { ...PROVIDER, headers, chat: { models: names }, tts: { voices: names } }]),
      ),
      routes: {
        ...Object.fromEntries(MEMBERS.map((m) => [m, { capability: 'chat', providers: [...MEMBERS] }])),
        chat: { providers: [...MEMBERS], weights: amounts, costs: amounts },
      },
      defaults: { routes: { weights: amounts, costs: amounts } },
    });
    expect(Object.keys(config.providers)).toEqual([...MEMBERS]);
    expect(Object.keys(config.routes)).toEqual([...MEMBERS, 'chat']);
    for (const m of MEMBERS) {
      const p = config.providers[m] as {
        headers: object;
        chat: { models: object };
        tts: { voices: object };
      };
      expect([p.headers, p.chat.models, p.tts.voices]).toEqual([headers, names, names]);
      expect(config.routes[m]!.weights).toEqual(amounts);
    }
    expect([config.routes.chat!.weights, config.routes.chat!.costs]).toEqual([amounts, amounts]);
  });

  it('reserved-config-names: a weighted route draws a provider named after a prototype member at its own weight', async () => {
    const hits: Record<string, number> = { constructor: 0, b: 0 };
    const serve = async (name: string) =>
      (
        await httpServer(async (req, res) => {
          await readBody(req);
          hits[name]!++;
          answerChat(res, 'Booked.');
        })
      ).url;
    const providers = {
      constructor: {
        kind: 'openai-compatible',
        baseUrl: `${await serve('constructor')}/v1`,
        chat: { models: { fast: 'm' } },
      },
      b: { kind: 'openai-compatible', baseUrl: `${await serve('b')}/v1`, chat: { models: { fast: 'm' } } },
    } as const;
    // Weights 1 and 1 (none given): a draw of 0.1 x 2 falls on the first, 0.9 x 2 on the second.
    for (const [draw, first] of [
      [0.1, 'constructor'],
      [0.9, 'b'],
    ] as const) {
      const r = router(
        { providers, routes: { chat: { providers: ['constructor', 'b'], strategy: 'weighted' } } },
        { random: () => draw },
      );
      const stream = r.chat({ model: 'fast', messages: MESSAGES });
      expect((await drain(stream)).error).toBeUndefined();
      expect((await stream.result).provider).toBe(first);
    }
    expect(hits).toEqual({ constructor: 1, b: 1 });
  });

  it('reserved-config-names: a cost route prices a provider named after a prototype member at its own cost', async () => {
    const serve = async () =>
      (
        await httpServer(async (req, res) => {
          await readBody(req);
          answerChat(res, 'Booked.');
        })
      ).url;
    // `toString` has no cost of its own: 0, cheaper than b's 0.5.
    const r = router({
      providers: {
        b: { kind: 'openai-compatible', baseUrl: `${await serve()}/v1`, chat: { models: { fast: 'm' } } },
        toString: {
          kind: 'openai-compatible' as const,
          baseUrl: `${await serve()}/v1`,
          chat: { models: { fast: 'm' } },
        },
      },
      routes: { chat: { providers: ['b', 'toString'], strategy: 'cost', costs: { b: 0.5 } } },
    });
    const stream = r.chat({ model: 'fast', messages: MESSAGES });
    expect((await drain(stream)).error).toBeUndefined();
    expect((await stream.result).provider).toBe('toString');
  });
});
