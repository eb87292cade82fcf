import { describe, expect, it } from 'vitest';
import { configJsonSchema, parseConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors/index.js';
import { createAdapter } from '../../../src/providers/create-adapter.js';
import {
  elevenLabsAdapterFromConfig,
  type ResolvedElevenLabsConfig,
} from '../../../src/providers/elevenlabs/index.js';

/** The builders, as the router loads them (one dynamic import, in the background). */
const loadAdapters = () => import('../../../src/providers/adapters.js');

const routes = { tts: { providers: ['eleven'] } };

function resolved(
  provider: Record<string, unknown>,
  env: Record<string, string> = {},
): ResolvedElevenLabsConfig {
  const config = parseConfig({ providers: { eleven: provider }, routes }, { env });
  return config.providers.eleven as ResolvedElevenLabsConfig;
}

function issuesOf(provider: Record<string, unknown>): string[] {
  try {
    parseConfig({ providers: { eleven: provider }, routes }, { env: {} });
  } catch (error) {
    if (ConfigError.isInstance(error)) return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('config kind elevenlabs', () => {
  it('applies the defaults and reads the key from the environment', () => {
    const provider = resolved(
      { kind: 'elevenlabs', apiKey: { env: 'ELEVENLABS_API_KEY' }, tts: { voices: { agent: 'voice-1' } } },
      { ELEVENLABS_API_KEY: 'xi-from-env' },
    );
    expect(provider).toEqual({
      kind: 'elevenlabs',
      baseUrl: 'https://api.elevenlabs.io',
      apiKey: 'xi-from-env',
      tts: {
        model: 'eleven_flash_v2_5',
        voices: { agent: 'voice-1' },
        transport: 'auto',
        keepAliveIntervalMs: 10_000,
      },
    });
  });

  it('keeps every tts field, with a trailing slash removed from baseUrl', () => {
    const provider = resolved({
      kind: 'elevenlabs',
      baseUrl: 'https://api.eu.residency.elevenlabs.io/',
      apiKey: 'xi-literal',
      tts: {
        model: 'eleven_turbo_v2_5',
        voices: { agent: 'v1', narrator: 'v2' },
        transport: 'websocket',
        optimizeStreamingLatency: 2,
        voiceSettings: { stability: 0.3, similarityBoost: 0.9, style: 0, useSpeakerBoost: false, speed: 0.8 },
        chunkLengthSchedule: [50, 90],
        keepAliveIntervalMs: 15_000,
      },
    });
    expect(provider.baseUrl).toBe('https://api.eu.residency.elevenlabs.io');
    expect(provider.tts).toMatchObject({
      transport: 'websocket',
      chunkLengthSchedule: [50, 90],
      optimizeStreamingLatency: 2,
    });
  });

  it('rejects unknown keys, out-of-range values and a missing key, each with its path', () => {
    expect(
      issuesOf({
        kind: 'elevenlabs',
        tts: {
          voices: { agent: 'v' },
          transport: 'grpc',
          optimizeStreamingLatency: 5,
          voiceSettings: { similarity_boost: 0.5, speed: 2 },
          chunkLengthSchedule: [10],
          outputFormat: 'pcm_16000',
        },
      }),
    ).toEqual([
      'providers.eleven.apiKey: required, but missing (a string or { env: "VARIABLE_NAME" })',
      'providers.eleven.tts.transport: must be one of "http", "websocket", "auto"',
      'providers.eleven.tts.optimizeStreamingLatency: must be 0..4',
      'providers.eleven.tts.voiceSettings.speed: must be <= 1.2',
      'providers.eleven.tts.voiceSettings.similarity_boost: unknown key; did you mean "similarityBoost"?',
      'providers.eleven.tts.chunkLengthSchedule.0: must be >= 50',
      'providers.eleven.tts.outputFormat: unknown key',
    ]);
  });

  it('is in the JSON Schema with its descriptions', () => {
    const text = JSON.stringify(configJsonSchema());
    expect(text).toContain('"elevenlabs"');
    expect(text).toContain('chunk_length_schedule');
  });

  it('builds the adapter through createAdapter, with the wire settings only', async () => {
    const provider = resolved({
      kind: 'elevenlabs',
      apiKey: 'xi-literal',
      tts: { voices: { agent: 'v1' }, transport: 'http', voiceSettings: { stability: 0.5 } },
    });
    const adapter = createAdapter('eleven', provider, { load: loadAdapters });
    expect(adapter.name).toBe('eleven');
    await adapter.ready?.();
    expect(adapter.tts?.capabilities).toMatchObject({ streamingText: false, wordTimestamps: false });
    expect(elevenLabsAdapterFromConfig('eleven', provider).tts?.capabilities.outputFormats).toHaveLength(9);
    const noTts = elevenLabsAdapterFromConfig('eleven', { ...provider, tts: undefined });
    expect(noTts.tts).toBeUndefined();
  });
});
