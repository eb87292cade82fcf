import { describe, expect, it } from 'vitest';
import { isResolvedConfig, parseConfig, providerKinds } from '../../src/config/index.js';
import {
  asOpenAi,
  configErrorOf,
  issuePaths,
  RESOLVED_ESPEAK_TTS,
  resolvedRoute,
  validConfig,
} from './helpers.js';

const env = { OPENAI_API_KEY: 'sk-test-key-123456' };

describe('parseConfig: a valid config', () => {
  it('applies every default and resolves secrets and route capabilities', () => {
    const config = parseConfig(validConfig(), { env });
    expect(config).toEqual({
      providers: {
        'ec2-a': {
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:8801/v1',
          headers: {},
          chat: { models: { fast: 'voxroute-echo' } },
          tts: RESOLVED_ESPEAK_TTS,
          stt: { model: 'pocketsphinx', streaming: true },
        },
        openai: {
          kind: 'openai',
          baseUrl: 'https://api.openai.com/v1',
          apiKey: 'sk-test-key-123456',
          headers: {},
          tts: {
            model: 'gpt-4o-mini-tts',
            voices: { agent: 'alloy' },
            responseFormat: 'pcm',
            streamFormat: 'audio',
            sampleRate: 24000,
          },
        },
      },
      routes: {
        tts: resolvedRoute('tts', 'tts', ['ec2-a', 'openai']),
        stt: resolvedRoute('stt', 'stt', ['ec2-a'], { strategy: 'priority' }),
      },
    });
    expect(isResolvedConfig(config)).toBe(true);
    expect(isResolvedConfig(validConfig())).toBe(false);
    expect(isResolvedConfig({ ...config })).toBe(false);
  });

  it('returns a config it already resolved as is, without reading the environment again', () => {
    const config = parseConfig(validConfig(), { env });
    expect(parseConfig(config, { env: {} })).toBe(config);
  });

  it('takes route settings from the route, else defaults.routes, else the built-in defaults', () => {
    const input = validConfig();
    input.defaults = { routes: { idleTimeoutMs: 3000, firstChunkTimeoutMs: false, totalTimeoutMs: 30_000 } };
    input.routes.tts.idleTimeoutMs = 1500;
    input.routes.tts.firstChunkTimeoutMs = 800;
    const { routes } = parseConfig(input, { env });
    expect(routes.tts).toMatchObject({
      idleTimeoutMs: 1500,
      firstChunkTimeoutMs: 800,
      totalTimeoutMs: 30_000,
    });
    expect(routes.stt).toMatchObject({
      idleTimeoutMs: 3000,
      firstChunkTimeoutMs: false,
      totalTimeoutMs: 30_000,
      connectTimeoutMs: 2000,
    });
  });

  it('takes inFlightWeight from the route, else defaults.routes (default 0), and rejects a negative one at its path', () => {
    const input = validConfig();
    input.defaults = { routes: { inFlightWeight: 1 } };
    input.routes.tts.inFlightWeight = 0.5;
    const { routes } = parseConfig(input, { env });
    expect(routes.tts!.inFlightWeight).toBe(0.5);
    expect(routes.stt!.inFlightWeight).toBe(1);
    input.routes.tts.inFlightWeight = -1;
    expect(configErrorOf(() => parseConfig(input, { env })).issues).toEqual([
      { path: ['routes', 'tts', 'inFlightWeight'], message: 'must be >= 0' },
    ]);
  });

  it('gives a named extra route the capability it declares', () => {
    const input = validConfig();
    input.routes['tts-premium'] = { capability: 'tts', providers: ['openai'], ewmaDecayMs: 10_000 };
    const route = parseConfig(input, { env }).routes['tts-premium'];
    expect(route).toMatchObject({
      name: 'tts-premium',
      capability: 'tts',
      providers: ['openai'],
      ewmaDecayMs: 10_000,
    });
  });

  it('strips trailing slashes from baseUrl', () => {
    const input = validConfig();
    input.providers['ec2-a'].baseUrl = 'http://127.0.0.1:8801/v1//';
    expect(asOpenAi(parseConfig(input, { env }).providers['ec2-a']).baseUrl).toBe('http://127.0.0.1:8801/v1');
  });

  it('accepts a $schema key for editors', () => {
    const input = { $schema: './schema.json', ...validConfig() };
    expect(Object.keys(parseConfig(input, { env }).routes)).toEqual(['tts', 'stt']);
  });
});

describe('parseConfig: invalid fields', () => {
  it('reports every invalid field at once, each with its full path', () => {
    const input = validConfig();
    input.providers['ec2-a'].baseUrl = 'ftp://127.0.0.1/v1';
    input.providers['ec2-a'].tts.responseFormat = 'mp3';
    input.providers['ec2-a'].tts.sampleRate = 22050.5;
    input.providers['ec2-a'].stt.streaming = 'yes';
    input.providers['ec2-a'].chat.models = {};
    input.providers.openai.kind = 'openia';
    input.routes.tts.strategy = 'fastest';
    input.routes.tts.idleTimeoutMs = 0;
    input.routes.stt.connectTimeoutMs = 2 ** 31;
    input.routes.stt.firstChunkTimeoutMs = 'soon';
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      { path: ['providers', 'ec2-a', 'baseUrl'], message: 'must be an http:// or https:// URL' },
      { path: ['providers', 'ec2-a', 'chat', 'models'], message: 'must map at least one name' },
      {
        path: ['providers', 'ec2-a', 'tts', 'responseFormat'],
        message: 'must be one of "pcm", "wav"',
      },
      { path: ['providers', 'ec2-a', 'tts', 'sampleRate'], message: 'must be a whole number of Hz' },
      {
        path: ['providers', 'ec2-a', 'stt', 'streaming'],
        message: 'expected a boolean, got a string',
      },
      {
        path: ['providers', 'openai', 'kind'],
        message: `kind must be one of ${providerKinds()
          .map((k) => JSON.stringify(k))
          .join(', ')}`,
      },
      {
        path: ['routes', 'tts', 'strategy'],
        message: 'must be one of "latency", "priority", "weighted", "cost"',
      },
      { path: ['routes', 'tts', 'idleTimeoutMs'], message: 'must be > 0 ms' },
      { path: ['routes', 'stt', 'firstChunkTimeoutMs'], message: 'expected a number of ms, "auto" or false' },
      {
        path: ['routes', 'stt', 'connectTimeoutMs'],
        message: 'must be <= 2147483647 ms (the longest timer Node.js supports)',
      },
    ]);
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('\n  providers.ec2-a.baseUrl: must be an http:// or https:// URL\n');
    expect(error.message).toContain(
      '\n  routes.stt.firstChunkTimeoutMs: expected a number of ms, "auto" or false',
    );
  });

  it('reports the matching member of a union, not "Invalid input"', () => {
    const input = validConfig();
    input.routes.tts.firstChunkTimeoutMs = -5;
    input.routes.stt.firstChunkTimeoutMs = 1.5;
    input.providers.openai.apiKey = { env: 'lower-case-not-allowed' };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'openai', 'apiKey', 'env'],
        message: expect.stringContaining('environment variable name'),
      },
      { path: ['routes', 'tts', 'firstChunkTimeoutMs'], message: 'must be > 0 ms' },
      { path: ['routes', 'stt', 'firstChunkTimeoutMs'], message: 'must be a whole number of milliseconds' },
    ]);
  });

  it('rejects unknown keys everywhere, one issue per key at its own path', () => {
    const input = validConfig();
    input.extra = 1;
    input.providers['ec2-a'].apiKye = 'typo';
    input.providers['ec2-a'].tts.voice = 'en-us';
    input.providers.openai.apiKey = { env: 'OPENAI_API_KEY', fallback: 'x' };
    input.routes.tts.retryBudget = 3;
    input.routes.tts.firstChunkTimeout = 500;
    input.defaults = { routes: { strategy: 'priority', retries: 2 }, providers: {} };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      { path: ['providers', 'ec2-a', 'tts', 'voice'], message: 'unknown key; did you mean "voices"?' },
      { path: ['providers', 'ec2-a', 'apiKye'], message: 'unknown key; did you mean "apiKey"?' },
      { path: ['providers', 'openai', 'apiKey', 'fallback'], message: 'unknown key' },
      { path: ['routes', 'tts', 'retryBudget'], message: 'unknown key' },
      {
        path: ['routes', 'tts', 'firstChunkTimeout'],
        message: 'unknown key; did you mean "firstChunkTimeoutMs"?',
      },
      { path: ['defaults', 'routes', 'retries'], message: 'unknown key' },
      { path: ['defaults', 'providers'], message: 'unknown key' },
      { path: ['extra'], message: 'unknown key' },
    ]);
  });

  it('requires kind, and baseUrl for openai-compatible, and apiKey for openai', () => {
    const input = validConfig();
    delete input.providers['ec2-a'].baseUrl;
    delete input.providers.openai.apiKey;
    input.providers.nokind = { tts: { voices: { a: 'b' } } };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(issuePaths(error.issues)).toEqual([
      'providers.ec2-a.baseUrl',
      'providers.openai.apiKey',
      'providers.nokind.kind',
    ]);
  });

  it('rejects a baseUrl with credentials in it, and an apiKey together with an Authorization header', () => {
    const input = validConfig();
    input.providers['ec2-a'].baseUrl = 'https://user:pw@example.com/v1';
    input.providers.openai.headers = { authorization: 'Bearer abc', 'X-Trace': 'on' };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['providers', 'ec2-a', 'baseUrl'],
        message: 'must not contain a user name or password: put credentials in apiKey or headers',
      },
      {
        path: ['providers', 'openai', 'headers', 'authorization'],
        message: 'set either apiKey or an Authorization header, not both',
      },
    ]);
    expect(error.message).not.toContain('pw@');
  });

  it('rejects a config that is not an object, and one without providers', () => {
    expect(configErrorOf(() => parseConfig('providers: {}')).issues).toEqual([
      { path: [], message: 'expected an object, got a string' },
    ]);
    const error = configErrorOf(() => parseConfig({ providers: {}, routes: {} }));
    expect(error.issues).toEqual([{ path: ['providers'], message: 'must define at least one provider' }]);
    expect(error.message).toBe('Invalid voxroute config:\n  providers: must define at least one provider');
  });

  it('names the source in the message', () => {
    const error = configErrorOf(() => parseConfig({}, { source: '/etc/voxroute.yaml' }));
    expect(error.message.split('\n')[0]).toBe('Invalid voxroute config in /etc/voxroute.yaml:');
    expect(issuePaths(error.issues)).toEqual(['providers', 'routes']);
  });
});
