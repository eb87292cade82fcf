import { describe, expect, it } from 'vitest';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { parseConfig } from '../../src/config/index.js';
import { createRouter } from '../../src/index.js';
import { configErrorOf, validConfig } from './helpers.js';

const env = { OPENAI_API_KEY: 'sk-test-key-123456' };

describe('parseConfig: references between providers and routes', () => {
  it('reports a route naming an unknown provider at that provider entry', () => {
    const input = validConfig();
    input.routes.tts.providers = ['ec2-a', 'ec2-b'];
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['routes', 'tts', 'providers', 1],
        message: 'unknown provider "ec2-b"; the config has "ec2-a", "openai"',
      },
    ]);
    expect(error.message).toContain('routes.tts.providers.1: unknown provider "ec2-b"');
  });

  it('reports weights and costs keys that are not providers of the route (or configured), with a did-you-mean', () => {
    const input = validConfig();
    input.routes.tts = {
      providers: ['ec2-a', 'openai'],
      strategy: 'weighted',
      weights: { 'ec2-a': 1, opneai: 2, typoProvider: 3 },
      costs: { openai: 1 },
    };
    input.routes.stt = { providers: ['ec2-a'], costs: { openai: 1 } };
    input.defaults = { routes: { weights: { 'ec2-b': 1, openai: 2 } } };
    const expected = [
      {
        path: ['defaults', 'routes', 'weights', 'ec2-b'],
        message: 'not a configured provider; did you mean "ec2-a"?',
      },
      {
        path: ['routes', 'tts', 'weights', 'opneai'],
        message: 'not a provider of this route; did you mean "openai"?',
      },
      {
        path: ['routes', 'tts', 'weights', 'typoProvider'],
        message: 'not a provider of this route ("ec2-a", "openai")',
      },
      { path: ['routes', 'stt', 'costs', 'openai'], message: 'not a provider of this route ("ec2-a")' },
    ];
    expect(configErrorOf(() => parseConfig(input, { env })).issues).toEqual(expected);
    const routerError = configErrorOf(() => createRouter(input as never, { env } as never));
    expect(routerError.message).toContain(
      'routes.tts.weights.typoProvider: not a provider of this route ("ec2-a", "openai")',
    );
    // The zod-free fast path refuses to vouch for it too; it does vouch once the keys are fixed.
    expect(fastParseConfig(input)).toBeUndefined();
    input.routes.tts.weights = { 'ec2-a': 1, openai: 2 };
    input.routes.stt = { providers: ['ec2-a'] };
    input.defaults = { routes: { weights: { 'ec2-a': 1, openai: 2 } } };
    expect(fastParseConfig(input)?.routes.tts?.weights).toEqual({ 'ec2-a': 1, openai: 2 });
  });

  it('reports a midStream policy that does not fit the route capability', () => {
    const input = validConfig();
    input.routes.tts.midStream = 'replay';
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['routes', 'tts', 'midStream'],
        message: '"replay" is not for a tts route: use "error" or "resume"',
      },
    ]);
  });

  it.each([
    ['resume', '"resume" is not for a chat route: use "error" or "continue"'],
    ['retry', 'must be "error" or "continue" on a chat route'],
    [5, 'must be "error" or "continue" on a chat route'],
  ])(
    'a bad midStream %j on a chat route is one issue, offering only what a chat route takes',
    (value, message) => {
      const input = validConfig();
      input.routes.chat = { providers: ['ec2-a'], midStream: value };
      const error = configErrorOf(() => parseConfig(input, { env }));
      expect(error.issues).toEqual([{ path: ['routes', 'chat', 'midStream'], message }]);
    },
  );

  it('a bad midStream where no capability is known (defaults.routes) lists every policy', () => {
    const input = validConfig();
    input.defaults = { routes: { midStream: 'retry' } };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['defaults', 'routes', 'midStream'],
        message: 'must be one of "error", "resume", "replay", "continue"',
      },
    ]);
  });

  it('defaults midStream to error (C28), and keeps resume when a tts route sets it', () => {
    const input = validConfig();
    const config = parseConfig(input, { env });
    expect([config.routes.tts?.midStream, config.routes.stt?.midStream]).toEqual(['error', 'error']);
    input.routes.tts.midStream = 'resume';
    expect(parseConfig(input, { env }).routes.tts?.midStream).toBe('resume');
  });

  it('reports a provider that lacks the route capability', () => {
    const input = validConfig();
    input.routes.chat = { providers: ['ec2-a', 'openai'] };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['routes', 'chat', 'providers', 1],
        message: 'provider "openai" has no chat capability (no chat section in providers.openai)',
      },
    ]);
  });

  it('requires capability on a route not named tts, stt or chat, and checks its providers against it', () => {
    const input = validConfig();
    input.routes['tts-premium'] = { providers: ['openai'] };
    input.routes['stt-backup'] = { capability: 'stt', providers: ['openai'] };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      {
        path: ['routes', 'tts-premium', 'capability'],
        message: 'required for a route not named tts, stt or chat: set capability to "tts", "stt" or "chat"',
      },
      {
        path: ['routes', 'stt-backup', 'providers', 0],
        message: 'provider "openai" has no stt capability (no stt section in providers.openai)',
      },
    ]);
  });

  it('rejects a capability that contradicts the route name, and an invalid capability', () => {
    const input = validConfig();
    input.routes.tts.capability = 'chat';
    input.routes.premium = { capability: 'video', providers: ['openai'] };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      { path: ['routes', 'premium', 'capability'], message: 'must be one of "tts", "stt", "chat"' },
      {
        path: ['routes', 'tts', 'capability'],
        message: 'the route named "tts" serves tts; remove capability or rename the route',
      },
    ]);
  });

  it('rejects a provider named twice in one route, and a provider with no capability', () => {
    const input = validConfig();
    input.routes.tts.providers = ['openai', 'ec2-a', 'openai'];
    input.providers.idle = { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' };
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      { path: ['providers', 'idle'], message: 'has no capability: add a tts, stt or chat section' },
      { path: ['routes', 'tts', 'providers', 2], message: 'names provider "openai" twice' },
    ]);
  });

  it('reports reference errors together with field errors', () => {
    const input = validConfig();
    input.providers['ec2-a'].tts.sampleRate = 100;
    input.routes.stt.providers = ['nope'];
    const error = configErrorOf(() => parseConfig(input, { env }));
    expect(error.issues).toEqual([
      { path: ['providers', 'ec2-a', 'tts', 'sampleRate'], message: 'must be >= 8000 Hz' },
      {
        path: ['routes', 'stt', 'providers', 0],
        message: 'unknown provider "nope"; the config has "ec2-a", "openai"',
      },
    ]);
  });
});
