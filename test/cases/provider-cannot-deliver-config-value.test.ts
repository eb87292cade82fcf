/**
 * A config value that the provider's wire fixes and the config could set otherwise is a
 * ConfigError at its path, before any provider is contacted, by the schema and the zod-free fast
 * path alike: kind `openai` answers `pcm` speech at 24 kHz whatever is asked (the request has no
 * rate field), so a `tts.sampleRate` other than 24000 would label 24 kHz bytes with another rate
 * and play them slowed down with no error; and its tts-1/tts-1-hd models do not stream SSE. Kind
 * `openai-compatible` keeps both settings (self-hosted servers differ). A SageMaker endpoint
 * spoken to with Cartesia's wire (payload "cartesia") takes only Cartesia's sample rates. The speech server speaks
 * OpenAI's wire on its own and counts every request.
 */
import { describe, expect, it } from 'vitest';
import { fastParseConfig } from '../../src/config/fast-parse.js';
import { parseConfig } from '../../src/config/index.js';
import { createRouter, type RouterConfig } from '../../src/index.js';
import { configErrorOf } from '../config/helpers.js';
import { drain, pcmSignal, recordingSpeechServer, router } from './wire/servers.js';

const RATE_MESSAGE =
  'must be 24000 on kind "openai": OpenAI\'s pcm speech is always 24 kHz (leave it out; another rate is for kind "openai-compatible")';

function config(
  kind: 'openai' | 'openai-compatible',
  baseUrl: string,
  tts: Record<string, unknown>,
): RouterConfig {
  return {
    providers: {
      oa: { kind, baseUrl, apiKey: 'sk-test', tts: { voices: { agent: 'alloy' }, ...tts } },
    },
    routes: { tts: { providers: ['oa'] } },
  } as RouterConfig;
}

describe('provider cannot deliver a config value', () => {
  it.each([8000, 16_000, 22_050, 44_100, 48_000])(
    'kind openai, tts.sampleRate %i: ConfigError at providers.oa.tts.sampleRate from parseConfig and createRouter; the fast path leaves it to the schema; no request sent',
    async (sampleRate) => {
      const { wire } = await recordingSpeechServer(pcmSignal(2400, 24_000));
      const input = config('openai', `${wire.url}/v1`, { model: 'gpt-4o-mini-tts', sampleRate });
      expect(fastParseConfig(input)).toBeUndefined();
      for (const run of [() => parseConfig(input), () => createRouter(input)]) {
        expect(configErrorOf(run).issues).toEqual([
          { path: ['providers', 'oa', 'tts', 'sampleRate'], message: RATE_MESSAGE },
        ]);
      }
      expect(wire.hits).toBe(0);
    },
  );

  it('kind openai, tts.sampleRate 24000 or left out: accepted by both paths, and the audio is 24 kHz over the wire', async () => {
    const audio = pcmSignal(2400, 24_000);
    const { wire } = await recordingSpeechServer(audio);
    for (const tts of [{ sampleRate: 24_000 }, {}]) {
      const input = config('openai', `${wire.url}/v1`, { model: 'gpt-4o-mini-tts', ...tts });
      expect(fastParseConfig(input)?.providers.oa).toMatchObject({ tts: { sampleRate: 24_000 } });
      const { items, error } = await drain(router(input).tts({ text: 'Hi.', voice: 'agent' }));
      expect(error).toBeUndefined();
      expect(items.map((c) => c.format.sampleRate)).toEqual(items.map(() => 24_000));
      expect(items.reduce((n, c) => n + c.data.byteLength, 0)).toBe(audio.byteLength);
    }
    expect(wire.hits).toBe(2);
  });

  it('kind openai-compatible keeps tts.sampleRate: 16000 is read as 16 kHz', async () => {
    const { wire } = await recordingSpeechServer(pcmSignal(1600, 16_000));
    const input = config('openai-compatible', `${wire.url}/v1`, { sampleRate: 16_000 });
    expect(fastParseConfig(input)?.providers.oa).toMatchObject({ tts: { sampleRate: 16_000 } });
    const { items, error } = await drain(
      router(input).tts({
        text: 'Hi.',
        voice: 'agent',
        format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      }),
    );
    expect(error).toBeUndefined();
    expect(items.reduce((n, c) => n + c.data.byteLength, 0)).toBe(3200);
    expect(wire.hits).toBe(1);
  });

  it.each(['tts-1', 'tts-1-hd', 'tts-1-1106', 'tts-1-hd-1106'])(
    'kind openai, streamFormat "sse" with model %s: ConfigError at providers.oa.tts.streamFormat by both paths',
    (model) => {
      const input = config('openai', 'http://127.0.0.1:9/v1', { model, streamFormat: 'sse' });
      expect(fastParseConfig(input)).toBeUndefined();
      expect(configErrorOf(() => createRouter(input)).issues).toEqual([
        {
          path: ['providers', 'oa', 'tts', 'streamFormat'],
          message: `"sse" is not served by OpenAI's model "${model}" (tts-1 and tts-1-hd stream "audio" only): use "audio" or a model such as gpt-4o-mini-tts`,
        },
      ]);
    },
  );

  it('both faults at once are two issues; SSE on gpt-4o-mini-tts, tts-1 with "audio", and SSE with tts-1 on openai-compatible are accepted', () => {
    const both = config('openai', 'http://127.0.0.1:9/v1', {
      model: 'tts-1',
      streamFormat: 'sse',
      sampleRate: 16_000,
    });
    expect(configErrorOf(() => parseConfig(both)).issues.map((i) => i.path.join('.'))).toEqual([
      'providers.oa.tts.sampleRate',
      'providers.oa.tts.streamFormat',
    ]);
    for (const input of [
      config('openai', 'http://127.0.0.1:9/v1', { model: 'gpt-4o-mini-tts', streamFormat: 'sse' }),
      config('openai', 'http://127.0.0.1:9/v1', { model: 'tts-1', streamFormat: 'audio' }),
      config('openai-compatible', 'http://127.0.0.1:9/v1', {
        model: 'tts-1',
        streamFormat: 'sse',
        sampleRate: 16_000,
      }),
    ]) {
      expect(parseConfig(input).providers.oa).toEqual(fastParseConfig(input)?.providers.oa);
      // The fast path vouches for it (undefined: it declined).
      expect(Object.keys(fastParseConfig(input)?.providers ?? {})).toEqual(['oa']);
    }
  });

  it.each([11_025, 32_000, 12_000])(
    'kind sagemaker, payload "cartesia", tts.sampleRate %i (not a rate Cartesia serves): ConfigError at providers.sm.tts.sampleRate',
    (sampleRate) => {
      const input = {
        providers: {
          sm: {
            kind: 'sagemaker',
            region: 'us-east-1',
            endpointName: 'sonic',
            tts: { payload: 'cartesia', voices: { agent: 'v' }, sampleRate },
          },
        },
        routes: { tts: { providers: ['sm'] } },
      } as RouterConfig;
      expect(configErrorOf(() => createRouter(input)).issues).toEqual([
        {
          path: ['providers', 'sm', 'tts', 'sampleRate'],
          message:
            'must be one of Cartesia\'s rates with payload "cartesia": 8000, 16000, 22050, 24000, 44100, 48000 Hz',
        },
      ]);
    },
  );

  it('kind sagemaker: Cartesia\'s rates pass with payload "cartesia", and any rate with "raw-pcm"', () => {
    const input = (payload: string, sampleRate: number) =>
      ({
        providers: {
          sm: {
            kind: 'sagemaker',
            region: 'us-east-1',
            endpointName: 'e',
            tts: { payload, voices: { agent: 'v' }, sampleRate },
          },
        },
        routes: {},
      }) as RouterConfig;
    for (const rate of [8000, 16_000, 22_050, 24_000, 44_100, 48_000]) {
      expect(
        (parseConfig(input('cartesia', rate)).providers.sm as { tts: { sampleRate: number } }).tts.sampleRate,
      ).toBe(rate);
    }
    expect(
      (parseConfig(input('raw-pcm', 32_000)).providers.sm as { tts: { sampleRate: number } }).tts.sampleRate,
    ).toBe(32_000);
  });
});
