import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { PROVIDER_KINDS } from '../../src/config/provider-kinds.js';
import { providerKinds } from '../../src/config/provider-schema.js';
import { routerConfigSchema } from '../../src/config/schema.js';
import { type Loose, validConfig } from './helpers.js';

/**
 * The zod-free fast path must never accept what the schema rejects, and must give the schema's
 * output for what it accepts. Returns whether the fast path vouched for `input`.
 */
function agree(input: unknown): boolean {
  const fast = fastParseConfig(input);
  const slow = routerConfigSchema().safeParse(input);
  if (fast === undefined) return false;
  expect(slow.success).toBe(true);
  expect(fast).toStrictEqual(slow.data);
  return true;
}

const fixture = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A config that sets every field the fast path knows, all valid. */
function richConfig(): Record<string, Loose> {
  return {
    $schema: './voxroute.schema.json',
    providers: {
      'ec2-a': {
        kind: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:8801/v1//',
        apiKey: 'sk-local',
        headers: { 'x-team': 'voice', 'x-token': { env: 'TEAM_TOKEN' } },
        chat: { models: { fast: 'voxroute-echo', big: 'llama' } },
        tts: {
          model: 'kokoro',
          voices: { agent: 'af_heart' },
          responseFormat: 'wav',
          streamFormat: 'audio',
          sampleRate: 16000,
        },
        stt: { model: 'whisper', streaming: false, language: 'en' },
      },
      openai: {
        kind: 'openai',
        baseUrl: { env: 'OPENAI_BASE_URL' },
        apiKey: { env: 'OPENAI_API_KEY' },
        tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' },
        stt: { model: 'gpt-4o-mini-transcribe' },
      },
      claude: {
        kind: 'anthropic',
        baseUrl: 'https://gateway.example.com/anthropic/',
        apiKey: 'sk-ant',
        authHeader: 'bearer',
        anthropicVersion: '2023-06-01',
        headers: { 'anthropic-beta': 'x' },
        chat: { models: { fast: 'claude-haiku-4-5' }, maxTokens: 512 },
      },
    },
    routes: {
      tts: {
        providers: ['ec2-a', 'openai'],
        strategy: 'weighted',
        weights: { 'ec2-a': 3, openai: 0 },
        hedge: { after: 'auto', maxShare: 0.2 },
        firstChunkTimeoutMs: 800,
        midStream: 'resume',
      },
      stt: { providers: ['openai', 'ec2-a'], strategy: 'priority', midStream: 'replay', hedge: false },
      chat: {
        providers: ['claude', 'ec2-a'],
        strategy: 'cost',
        costs: { claude: 2.5, 'ec2-a': 0.1 },
        costLatencyFactor: 1.2,
        firstChunkTimeoutMs: false,
        midStream: 'continue',
      },
      'chat-fast': {
        capability: 'chat',
        providers: ['ec2-a'],
        inFlightWeight: 1,
        probeAfterMs: 10_000,
        idleTimeoutMs: 1000,
        totalTimeoutMs: 30_000,
        connectTimeoutMs: 500,
        ewmaDecayMs: 20_000,
        hedge: { after: 150 },
      },
    },
    defaults: {
      routes: {
        strategy: 'latency',
        hedge: { after: 'p95' },
        firstChunkTimeoutMs: 'auto',
        midStream: 'error',
      },
    },
    health: { store: 'redis', url: { env: 'REDIS_URL' }, keyPrefix: 'vr:' },
  };
}

/** Values planted at every path of the base configs: valid in some places, wrong in most. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'auto',
  'p99',
  'priority',
  'wav',
  'chat',
  'redis',
  0,
  -0,
  -1,
  0.5,
  1,
  1.5,
  100,
  8000,
  2_147_483_647,
  2_147_483_648,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  {},
  [],
  ['ec2-a'],
  { env: 'X' },
  { env: '1X' },
  { env: 'X', extra: 1 },
  'http://x',
  'https://example.com/v1/',
  'HTTP://example.com',
  ' http://example.com',
  'http://example.com/a b',
  'http:example.com',
  'ftp://example.com',
  'http://user:pass@example.com',
  'http://exa\nmple.com',
  'https://例え.jp',
  new Date(0),
  Object.create(null),
];

/** Every path of `value` to a leaf or object, e.g. ['providers', 'ec2-a', 'tts', 'voices']. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const out: (string | number)[][] = [];
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path, ...paths(child, path));
  }
  return out;
}

/** A deep copy of `base` (structuredClone) changed by `edit` at `path`'s parent. */
function edited(
  base: () => Record<string, Loose>,
  path: (string | number)[],
  edit: (parent: Loose, key: string | number) => void,
): Record<string, Loose> {
  const config = base();
  let parent: Loose = config;
  for (const key of path.slice(0, -1)) parent = parent[key];
  edit(parent, path[path.length - 1] as string | number);
  return config;
}

describe('fastParseConfig (the zod-free path of parseConfig)', () => {
  it('knows the provider kinds in the order of the schemas', () => {
    expect([...PROVIDER_KINDS]).toEqual([...providerKinds()]);
  });

  it('vouches for the test configs and the fixtures, with exactly the output of the schema', async () => {
    const inputs: unknown[] = [
      validConfig(),
      richConfig(),
      JSON.parse(readFileSync(fixture('fixtures/valid.json'), 'utf8')),
      parseYaml(readFileSync(fixture('fixtures/valid.yaml'), 'utf8')),
      parseYaml(readFileSync(fixture('../../examples/voxroute.config.yaml'), 'utf8')),
      ((await import(fixture('fixtures/valid.mjs'))) as { default: unknown }).default,
      {
        providers: { a: { kind: 'openai', apiKey: 'k', chat: { models: { fast: 'gpt-4o-mini' } } } },
        routes: { chat: { providers: ['a'] } },
      },
    ];
    expect(inputs.map(agree)).toEqual(inputs.map(() => true));
  });

  it('agrees with the schema when any field of a valid config is removed or replaced by an odd value', () => {
    let vouched = 0;
    let cases = 0;
    for (const base of [validConfig, richConfig]) {
      for (const path of paths(base())) {
        cases++;
        if (agree(edited(base, path, (parent, key) => delete parent[key]))) vouched++;
        for (const value of ODD_VALUES) {
          cases++;
          if (agree(edited(base, path, (parent, key) => (parent[key] = value)))) vouched++;
        }
        cases++;
        if (
          agree(
            edited(base, path, (parent, key) => {
              const child = parent[key];
              if (typeof child === 'object' && child !== null) child.unknownKey = 1;
            }),
          )
        )
          vouched++;
      }
    }
    // It vouches for the valid edits only; most edits are invalid and left to the schema.
    expect(cases).toBeGreaterThan(5000);
    expect(vouched).toBeGreaterThan(200);
    expect(vouched).toBeLessThan(cases / 2);
  });

  it('leaves unusual inputs to the schema: other kinds, getters, class instances, symbol keys', () => {
    const sagemaker = {
      providers: {
        sm: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'tts',
          tts: { voices: { a: 'b' }, payload: 'raw-pcm' },
        },
      },
      routes: { tts: { providers: ['sm'] } },
    };
    const getter = validConfig();
    Object.defineProperty(getter, 'routes', { get: () => validConfig().routes, enumerable: true });
    class Config {
      providers = validConfig().providers;
      routes = validConfig().routes;
    }
    const symbol = { ...validConfig(), [Symbol('x')]: 1 };
    for (const input of [sagemaker, getter, new Config(), symbol]) {
      expect(fastParseConfig(input)).toBeUndefined();
    }
    expect(routerConfigSchema().safeParse(sagemaker).success).toBe(true);
  });

  // 2000 seeded runs: seconds of CPU, over the default 20 s test timeout on a loaded machine.
  it('agrees with the schema on generated configs (fast-check)', { timeout: 120_000 }, () => {
    const odd = fc.constantFrom(...ODD_VALUES);
    const maybe = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 150, arbitrary: valid }, { weight: 1, arbitrary: odd });
    const name = fc.oneof({ weight: 100, arbitrary: fc.constantFrom('a', 'b') }, fc.constantFrom('c', ''));
    const secret = maybe(
      fc.oneof(fc.constantFrom('k', 'sk-1'), fc.constantFrom({ env: 'KEY' }, { env: 'A_1' })),
    );
    const url = maybe(
      fc.constantFrom('http://127.0.0.1:8801/v1', 'https://api.example.com/v1/', 'https://h', { env: 'URL' }),
    );
    const idMap = maybe(
      fc.oneof(
        { weight: 50, arbitrary: fc.constant({ fast: 'm', agent: 'v' }) },
        fc.dictionary(fc.constantFrom('fast', 'agent', ''), fc.constantFrom('m', ''), { maxKeys: 2 }),
      ),
    );
    const headers = maybe(
      fc.dictionary(
        fc.oneof(
          { weight: 50, arbitrary: fc.constant('x-a') },
          fc.constantFrom('Authorization', 'bad name', 'x-api-key'),
        ),
        secret,
        { maxKeys: 2 },
      ),
    );
    /** Mostly `valid`, sometimes one of the `edges` (values at or just past a bound). */
    const mostly = <T>(valid: fc.Arbitrary<T>, ...edges: T[]) =>
      maybe(fc.oneof({ weight: 100, arbitrary: valid }, fc.constantFrom(...edges)));
    const ms = mostly(fc.integer({ min: 1, max: 60_000 }), 0, -1, 1.5, 2_147_483_647, 2_147_483_648);
    const amount = (min: number, max: number) =>
      mostly(fc.double({ min, max, noNaN: true }), min - 0.001, min, max, Number.NaN);
    const opt = { requiredKeys: [] as never[] };
    const section = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 100, arbitrary: arb }, fc.constant(undefined));
    const openai = fc.record(
      {
        kind: maybe(fc.constantFrom('openai', 'openai-compatible')),
        baseUrl: url,
        apiKey: secret,
        headers,
        chat: section(fc.record({ models: idMap })),
        tts: section(
          fc.record(
            {
              // tts-1 with stream format "sse" on kind openai: an issue (tts-1 streams no SSE).
              model: maybe(fc.oneof({ weight: 9, arbitrary: fc.constant('kokoro') }, fc.constant('tts-1'))),
              voices: idMap,
              // "wav" with stream format "sse": an issue on both kinds (SSE carries PCM only).
              responseFormat: mostly(
                fc.oneof({ weight: 9, arbitrary: fc.constant('pcm') }, fc.constant('wav')),
                'mp3',
              ),
              streamFormat: maybe(fc.constantFrom('audio', 'sse')),
              // Kind openai takes only 24000 (OpenAI's pcm rate); kind openai-compatible any rate.
              sampleRate: mostly(
                fc.oneof(
                  { weight: 9, arbitrary: fc.constant(24_000) },
                  fc.integer({ min: 8000, max: 192_000 }),
                ),
                7999,
                192_001,
                16_000.5,
              ),
            },
            { requiredKeys: ['voices'] },
          ),
        ),
        stt: section(
          fc.record(
            { model: maybe(fc.constant('w')), streaming: fc.boolean(), language: maybe(fc.constant('en')) },
            { requiredKeys: ['model'] },
          ),
        ),
      },
      { requiredKeys: ['kind', 'baseUrl', 'apiKey'] },
    );
    const anthropic = fc.record(
      {
        kind: maybe(fc.constant('anthropic')),
        baseUrl: url,
        apiKey: secret,
        authHeader: maybe(fc.constantFrom('x-api-key', 'bearer')),
        anthropicVersion: maybe(fc.constant('2023-06-01')),
        headers,
        chat: fc.record(
          { models: idMap, maxTokens: mostly(fc.integer({ min: 1, max: 4096 }), 0, -1, 1.5) },
          { requiredKeys: ['models'] },
        ),
      },
      { requiredKeys: ['kind', 'apiKey', 'chat'] },
    );
    // Sections drawn as undefined are removed: an undefined value is left to the schema on purpose.
    const provider = fc
      .oneof({ weight: 10, arbitrary: openai }, anthropic)
      .map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)));
    const settings = {
      strategy: maybe(fc.constantFrom('latency', 'priority', 'weighted', 'cost')),
      weights: maybe(fc.dictionary(name, amount(0, 5), { maxKeys: 2 })),
      costs: maybe(fc.dictionary(name, amount(0, 5), { maxKeys: 2 })),
      costLatencyFactor: amount(1, 3),
      inFlightWeight: amount(0, 2),
      probeAfterMs: ms,
      hedge: maybe(
        fc.oneof(
          fc.constant(false),
          fc.record(
            { after: maybe(fc.oneof(fc.constantFrom('auto', 'p95', 'p99'), ms)), maxShare: amount(0, 1) },
            { requiredKeys: ['after'] },
          ),
        ),
      ),
      firstChunkTimeoutMs: maybe(fc.oneof(fc.constantFrom('auto', false), ms)),
      idleTimeoutMs: ms,
      totalTimeoutMs: ms,
      connectTimeoutMs: ms,
      midStream: mostly(fc.constant('error'), 'resume', 'replay', 'continue', 'x'),
      ewmaDecayMs: ms,
    };
    // A route's weights and costs name its own providers, mostly (another name is an error).
    const amountsOf = (names: readonly string[]) =>
      maybe(
        fc.dictionary(
          fc.oneof({ weight: 30, arbitrary: fc.constantFrom(...names) }, fc.constantFrom('c', 'x')),
          amount(0, 5),
          { maxKeys: 2 },
        ),
      );
    const route = (capability: string, named = true) =>
      fc
        .record(
          {
            capability: maybe(fc.constant(capability)),
            providers: maybe(fc.uniqueArray(name, { minLength: 1, maxLength: 2 })),
            ...settings,
          },
          { requiredKeys: named ? ['providers'] : ['providers', 'capability'] },
        )
        .chain((r) =>
          fc
            .record({
              weights: amountsOf(Array.isArray(r.providers) && r.providers.length ? r.providers : ['a']),
              costs: amountsOf(Array.isArray(r.providers) && r.providers.length ? r.providers : ['a']),
            })
            .map((amounts) => ({ ...r, ...amounts })),
        );
    const config = fc.record(
      {
        $schema: maybe(fc.constant('x')),
        providers: maybe(fc.record({ a: provider, b: provider })),
        routes: maybe(
          fc.record(
            { tts: route('tts'), stt: route('stt'), chat: route('chat'), 'chat-fast': route('chat', false) },
            opt,
          ),
        ),
        defaults: maybe(fc.record({ routes: maybe(fc.record(settings, opt)) }, opt)),
        health: maybe(
          fc.record(
            {
              store: maybe(fc.constant('redis')),
              url: secret,
              keyPrefix: mostly(fc.string({ minLength: 1, maxLength: 64 }), '', 'x'.repeat(65)),
            },
            { requiredKeys: ['store', 'url'] },
          ),
        ),
      },
      { requiredKeys: ['providers', 'routes'] },
    );
    let vouched = 0;
    let valid = 0;
    const count = (input: unknown) => {
      if (agree(input)) vouched++;
      if (routerConfigSchema().safeParse(input).success) valid++;
    };
    // Seeded, like the property tests (test/properties/chunks.ts), so CI draws the same configs
    // every time: the floors below are a property of the generator (enough valid configs for the
    // agreement check to bite), and an unseeded CI run once drew 97 valid of 2000.
    fc.assert(fc.property(config, count), { numRuns: 2000, seed: 20261201 });
    expect(valid).toBeGreaterThan(100);
    expect(vouched).toBeGreaterThan(valid * 0.9);
  });
});
