import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors/index.js';
import { CARTESIA_TTS_FORMATS } from '../../../src/providers/cartesia/index.js';
import { createAdapter } from '../../../src/providers/create-adapter.js';

/** The builders, as the router loads them (one dynamic import, in the background). */
const loadAdapters = () => import('../../../src/providers/adapters.js');

const base = {
  routes: { tts: { providers: ['sonic'] } },
};

function parse(provider: Record<string, unknown>) {
  return parseConfig({
    ...base,
    providers: { sonic: { kind: 'cartesia', apiKey: 'sk_car_cfg_0123456789', ...provider } },
  });
}

describe('config kind cartesia', () => {
  it('applies the defaults: base URL, Cartesia-Version, models, transport auto, timestamps, keep-warm', () => {
    const config = parse({ tts: { voices: { agent: 'voice-1' } }, stt: {} });
    expect(config.providers.sonic).toEqual({
      kind: 'cartesia',
      baseUrl: 'https://api.cartesia.ai',
      apiKey: 'sk_car_cfg_0123456789',
      version: '2025-11-04',
      headers: {},
      tts: {
        model: 'sonic-3',
        voices: { agent: 'voice-1' },
        transport: 'auto',
        addTimestamps: true,
        keepWarmMs: 30_000,
      },
      stt: { model: 'ink-whisper' },
    });
  });

  it('keeps every field given, a trailing slash of baseUrl removed', () => {
    const config = parse({
      baseUrl: 'http://127.0.0.1:9000/',
      version: '2026-03-01',
      headers: { 'X-Proxy': 'p1' },
      tts: {
        model: 'sonic-3.5',
        voices: { agent: 'v-a', narrator: 'v-n' },
        transport: 'websocket',
        language: 'fr',
        addTimestamps: false,
        maxBufferDelayMs: 0,
        keepWarmMs: 0,
      },
      stt: { model: 'ink-2', language: 'en' },
    });
    expect(config.providers.sonic).toMatchObject({
      baseUrl: 'http://127.0.0.1:9000',
      version: '2026-03-01',
      headers: { 'X-Proxy': 'p1' },
      tts: { model: 'sonic-3.5', transport: 'websocket', language: 'fr', maxBufferDelayMs: 0, keepWarmMs: 0 },
      stt: { model: 'ink-2', language: 'en' },
    });
  });

  it('rejects an unknown key, a bad transport, an out-of-range buffer delay and a missing key, with paths', () => {
    let caught: unknown;
    try {
      parseConfig({
        ...base,
        providers: {
          sonic: {
            kind: 'cartesia',
            voice: 'x',
            tts: { voices: { agent: 'v' }, transport: 'grpc', maxBufferDelayMs: 6000 },
          },
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    const issues = (caught as ConfigError).issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues.sort()).toEqual([
      ['providers.sonic.apiKey', 'required, but missing (a string or { env: "VARIABLE_NAME" })'],
      ['providers.sonic.tts.maxBufferDelayMs', 'must be <= 5000 ms'],
      ['providers.sonic.tts.transport', 'must be one of "bytes", "sse", "websocket", "auto"'],
      ['providers.sonic.voice', 'unknown key'],
    ]);
  });

  it('createAdapter builds a Cartesia adapter with the capabilities of the config', async () => {
    const config = parse({ tts: { voices: { agent: 'v' }, transport: 'sse' }, stt: {} });
    const adapter = createAdapter('sonic', config.providers.sonic!, { load: loadAdapters });
    expect(adapter.name).toBe('sonic');
    // STT capabilities are known before the adapter's code has loaded; TTS ones after.
    expect(adapter.stt?.capabilities.streamingInput).toBe(false);
    await adapter.ready?.();
    expect(adapter.tts?.capabilities).toEqual({
      outputFormats: [...CARTESIA_TTS_FORMATS],
      streamingText: false,
      wordTimestamps: true,
    });
    expect(adapter.stt?.capabilities.streamingInput).toBe(false);
    expect(adapter.chat).toBeUndefined();
  });
});
