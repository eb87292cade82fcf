import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors/index.js';
import { sageMakerOptionsFromConfig } from '../../../src/providers/sagemaker/index.js';

const routes = { chat: { providers: ['sm'] }, tts: { providers: ['sm'] }, stt: { providers: ['sm'] } };

function parseError(provider: Record<string, unknown>, env: Record<string, string> = {}): ConfigError {
  try {
    parseConfig({ providers: { sm: provider }, routes: { tts: { providers: ['sm'] } } }, { env });
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('config of kind sagemaker', () => {
  it('applies the defaults, resolves { env } credentials and maps to adapter options', () => {
    const config = parseConfig(
      {
        providers: {
          sm: {
            kind: 'sagemaker',
            region: 'us-east-1',
            endpointName: 'cartesia-sonic-realtime-endpoint',
            endpointUrl: 'http://127.0.0.1:4566/',
            credentials: { accessKeyId: { env: 'AWS_KEY' }, secretAccessKey: { env: 'AWS_SECRET' } },
            chat: { models: { fast: 'default' } },
            tts: { payload: 'cartesia', voices: { agent: 'voice-1' } },
            stt: { payload: 'wav', language: 'en' },
          },
        },
        routes,
      },
      { env: { AWS_KEY: 'AKIDTEST', AWS_SECRET: 'secret-value-123' } },
    );
    const sm = config.providers.sm!;
    expect(sm).toEqual({
      kind: 'sagemaker',
      region: 'us-east-1',
      endpointName: 'cartesia-sonic-realtime-endpoint',
      endpointUrl: 'http://127.0.0.1:4566',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-value-123' },
      chat: { models: { fast: 'default' }, payload: 'openai-chat' },
      tts: { payload: 'cartesia', voices: { agent: 'voice-1' }, sampleRate: 24_000, stream: 'response' },
      stt: { payload: 'wav', language: 'en', sampleRate: 16_000, stream: 'response' },
    });
    if (sm.kind !== 'sagemaker') throw new Error('kind');
    expect(sageMakerOptionsFromConfig('sm', sm)).toEqual({
      name: 'sm',
      region: 'us-east-1',
      endpointName: 'cartesia-sonic-realtime-endpoint',
      endpointUrl: 'http://127.0.0.1:4566',
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-value-123' },
      chat: { payload: 'openai-chat' },
      tts: { payload: 'cartesia', sampleRate: 24_000, stream: 'response' },
      stt: { payload: 'wav', sampleRate: 16_000, stream: 'response' },
    });
  });

  it('reports every bad field with its path', () => {
    const error = parseError({
      kind: 'sagemaker',
      region: 'Virginia',
      endpointName: 'bad_name!',
      tts: { voices: { agent: 'v' }, sampleRate: 4000 },
      apiKey: 'x',
    });
    expect(error.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'providers.sm.apiKey',
      'providers.sm.endpointName',
      'providers.sm.region',
      'providers.sm.tts.payload',
      'providers.sm.tts.sampleRate',
    ]);
    expect(error.issues.find((i) => i.path.join('.') === 'providers.sm.region')!.message).toBe(
      'must be an AWS region such as "us-east-1"',
    );
  });

  it('names a missing credential variable, never a value', () => {
    const error = parseError(
      {
        kind: 'sagemaker',
        region: 'eu-west-1',
        endpointName: 'sonic',
        credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: { env: 'MISSING_SECRET' } },
        tts: { payload: 'raw-pcm', voices: { agent: 'v' } },
      },
      {},
    );
    expect(error.issues).toEqual([
      {
        path: ['providers', 'sm', 'credentials', 'secretAccessKey'],
        message: 'environment variable MISSING_SECRET is not set',
      },
    ]);
    expect(error.message).not.toContain('AKIDTEST');
  });
});

describe('config of kind sagemaker: payload codecs are checked with the rest of the config', () => {
  const input = {
    providers: {
      sm: {
        kind: 'sagemaker',
        region: 'mars',
        endpointName: 'ep',
        chat: { payload: 'nope', models: { m: 'x' } },
        tts: { payload: 'mp3', voices: { a: 'v' } },
        stt: { payload: 'wav', stream: 'bidirectional' },
      },
    },
    routes: { chat: { providers: ['sm'], idleTimeoutMs: -1 } },
  };
  const expected = [
    { path: ['providers', 'sm', 'region'], message: 'must be an AWS region such as "us-east-1"' },
    {
      path: ['providers', 'sm', 'chat', 'payload'],
      message:
        'no chat codec named "nope"; known: "openai-chat", "tgi", "jsonlines" (register one with registerSageMakerCodec)',
    },
    {
      path: ['providers', 'sm', 'tts', 'payload'],
      message:
        'no tts codec named "mp3"; known: "cartesia", "raw-pcm" (register one with registerSageMakerCodec)',
    },
    {
      path: ['providers', 'sm', 'stt', 'stream'],
      message: 'the stt codec "wav" cannot stream audio in (no input()); use "raw-pcm" or stream: "response"',
    },
    { path: ['routes', 'chat', 'idleTimeoutMs'], message: 'must be > 0 ms' },
  ];

  it('parseConfig lists an unknown payload and a bidirectional stt codec without input() among every other error', () => {
    let error: unknown;
    try {
      parseConfig(input, { env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual(expected);
  });

  it('loadConfig reports them from a file, before any router exists', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voxroute-sm-'));
    const file = join(dir, 'voxroute.config.json');
    writeFileSync(file, JSON.stringify(input));
    let error: unknown;
    try {
      await loadConfig(file, { env: {} });
    } catch (e) {
      error = e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual(expected);
  });
});
