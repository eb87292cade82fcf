/**
 * The config types users write (RouterConfig, RouteConfig, ProviderConfig) are generated from the
 * zod schemas by scripts/config-types.mjs, each field documented by its schema's description (so
 * an editor shows it on hover, also from the built .d.ts). These tests keep the generated file up
 * to date, its types equal to the schemas' input types, and real configs from docs/ and
 * examples/ typing as before.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type {
  AnthropicProviderConfig,
  AnthropicResolvedConfig,
  CartesiaProviderConfig,
  CartesiaResolvedConfig,
  DeepgramProviderConfig,
  DeepgramResolvedConfig,
  ElevenLabsProviderConfig,
  ElevenLabsResolvedConfig,
  EnvSecretInput,
  OpenAICompatibleProviderConfig,
  OpenAICompatibleResolvedConfig,
  OpenAIProviderConfig,
  OpenAIResolvedConfig,
  SageMakerProviderConfig,
  SageMakerResolvedConfig,
} from '../../src/config/config-types.js';
import {
  type ConfigFactory,
  defineConfig,
  type ProviderConfig,
  parseConfig,
  type ResolvedProviderConfig,
  type RouteConfig,
  type RouterConfig,
  type SecretInput,
} from '../../src/config/index.js';
import type { providerSchema } from '../../src/config/provider-schema.js';
import type { routeSchema } from '../../src/config/route.js';
import type { routerConfigSchema } from '../../src/config/schema.js';
import type { ResolveSecrets } from '../../src/config-fields/resolve-secrets.js';
import type { anthropicProviderSchema } from '../../src/providers/anthropic/config.js';
import type { cartesiaProviderSchema } from '../../src/providers/cartesia/config.js';
import type { deepgramProviderSchema } from '../../src/providers/deepgram/config.js';
import type { elevenlabsProviderSchema } from '../../src/providers/elevenlabs/config.js';
import type {
  openaiCompatibleProviderSchema,
  openaiProviderSchema,
} from '../../src/providers/openai/config.js';
import type { sagemakerProviderSchema } from '../../src/providers/sagemaker/config.js';
import { PROBE_HANG_MS, PROBE_TEST_MS } from '../helpers/import-probe.js';

/** `T` with every array, at any depth, readonly: what the config types accept (`as const` configs). */
type ReadonlyArrays<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyArrays<U>[]
  : T extends object
    ? { [K in keyof T]: ReadonlyArrays<T[K]> }
    : T;

/** The output type of a lazily built schema with every secret resolved: what parseConfig gives. */
type Output<S extends () => z.ZodType> = ResolveSecrets<z.output<ReturnType<S>>>;

/** The input type of a lazily built schema, arrays readonly: what the config types were before generation. */
type Input<S extends () => z.ZodType> = ReadonlyArrays<z.input<ReturnType<S>>>;

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('generated config types', () => {
  // The script loads the schemas' sources through jiti: seconds on a busy machine, and more on a
  // loaded one (see PROBE_HANG_MS): a hang guard, not a speed check.
  it('src/config/config-types.ts is what scripts/config-types.mjs writes from the schemas', {
    timeout: PROBE_TEST_MS,
  }, () => {
    const result = spawnSync(process.execPath, ['scripts/config-types.mjs', '--check'], {
      cwd: root,
      encoding: 'utf8',
      timeout: PROBE_HANG_MS,
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toBe('src/config/config-types.ts is up to date\n');
  });

  it('each type equals the input type of its schema', () => {
    expectTypeOf<RouterConfig>().toEqualTypeOf<Input<typeof routerConfigSchema>>();
    expectTypeOf<RouteConfig>().toEqualTypeOf<Input<typeof routeSchema>>();
    expectTypeOf<ProviderConfig>().toEqualTypeOf<Input<typeof providerSchema>>();
    expectTypeOf<OpenAIProviderConfig>().toEqualTypeOf<Input<typeof openaiProviderSchema>>();
    expectTypeOf<OpenAICompatibleProviderConfig>().toEqualTypeOf<
      Input<typeof openaiCompatibleProviderSchema>
    >();
    expectTypeOf<AnthropicProviderConfig>().toEqualTypeOf<Input<typeof anthropicProviderSchema>>();
    expectTypeOf<CartesiaProviderConfig>().toEqualTypeOf<Input<typeof cartesiaProviderSchema>>();
    expectTypeOf<DeepgramProviderConfig>().toEqualTypeOf<Input<typeof deepgramProviderSchema>>();
    expectTypeOf<ElevenLabsProviderConfig>().toEqualTypeOf<Input<typeof elevenlabsProviderSchema>>();
    expectTypeOf<SageMakerProviderConfig>().toEqualTypeOf<Input<typeof sagemakerProviderSchema>>();
    expectTypeOf<string | EnvSecretInput>().toEqualTypeOf<SecretInput>();
  });

  it('each resolved type equals the output type of its schema with secrets resolved', () => {
    expectTypeOf<ResolvedProviderConfig>().toEqualTypeOf<Output<typeof providerSchema>>();
    expectTypeOf<OpenAIResolvedConfig>().toEqualTypeOf<Output<typeof openaiProviderSchema>>();
    expectTypeOf<OpenAICompatibleResolvedConfig>().toEqualTypeOf<
      Output<typeof openaiCompatibleProviderSchema>
    >();
    expectTypeOf<AnthropicResolvedConfig>().toEqualTypeOf<Output<typeof anthropicProviderSchema>>();
    expectTypeOf<CartesiaResolvedConfig>().toEqualTypeOf<Output<typeof cartesiaProviderSchema>>();
    expectTypeOf<DeepgramResolvedConfig>().toEqualTypeOf<Output<typeof deepgramProviderSchema>>();
    expectTypeOf<ElevenLabsResolvedConfig>().toEqualTypeOf<Output<typeof elevenlabsProviderSchema>>();
    expectTypeOf<SageMakerResolvedConfig>().toEqualTypeOf<Output<typeof sagemakerProviderSchema>>();
    // What parseConfig gives: a kind's own type once narrowed.
    const provider = parseConfig({
      providers: { oa: { kind: 'openai', apiKey: 'k', tts: { voices: { agent: 'alloy' } } } },
      routes: {},
    }).providers.oa;
    if (provider?.kind === 'openai') expectTypeOf(provider.tts!.model).toEqualTypeOf<string>();
    expect(provider).toMatchObject({ tts: { model: 'gpt-4o-mini-tts' } });
  });

  it('types real configs from docs/ and examples/ as before, and still refuses wrong ones', () => {
    // docs/config.md, "Writing it" (also the getting-started config).
    const written = defineConfig({
      providers: {
        ec2: {
          kind: 'openai-compatible',
          baseUrl: 'http://10.0.0.5:8000/v1',
          apiKey: { env: 'EC2_API_KEY' },
          chat: { models: { fast: 'meta-llama/Llama-3.1-8B-Instruct' } },
          tts: { model: 'kokoro', voices: { agent: 'af_heart' } },
          stt: { model: 'whisper-large-v3' },
        },
        openai: {
          kind: 'openai',
          apiKey: { env: 'OPENAI_API_KEY' },
          chat: { models: { fast: 'gpt-4o-mini' } },
          tts: { model: 'gpt-4o-mini-tts', voices: { agent: 'alloy' } },
        },
      },
      routes: {
        tts: { providers: ['ec2', 'openai'] },
        stt: { providers: ['ec2'] },
        chat: { providers: ['ec2', 'openai'], strategy: 'priority' },
        'tts-premium': { capability: 'tts', providers: ['openai'] },
      },
    });
    // docs/config.md, one entry per provider kind; examples/voxroute.config.ts's routes.
    const providers: Record<string, ProviderConfig> = {
      claude: {
        kind: 'anthropic',
        apiKey: { env: 'ANTHROPIC_API_KEY' },
        chat: { models: { fast: 'claude-haiku-4-5' }, maxTokens: 512 },
      },
      eleven: {
        kind: 'elevenlabs',
        apiKey: { env: 'ELEVENLABS_API_KEY' },
        tts: {
          voices: { agent: '21m00Tcm4TlvDq8ikWAM' },
          voiceSettings: { stability: 0.5, similarityBoost: 0.75 },
          chunkLengthSchedule: [50, 120] as const,
        },
      },
      deepgram: {
        kind: 'deepgram',
        apiKey: { env: 'DEEPGRAM_API_KEY' },
        stt: { model: 'nova-3', language: 'en-US', smartFormat: true, endpointingMs: false },
        tts: { voices: { agent: 'aura-2-thalia-en' } },
      },
      cartesia: {
        kind: 'cartesia',
        apiKey: { env: 'CARTESIA_API_KEY' },
        tts: { model: 'sonic-3', voices: { agent: 'voice-id' }, maxBufferDelayMs: 300 },
        stt: { model: 'ink-whisper' },
      },
      sonic: {
        kind: 'sagemaker',
        region: 'us-east-1',
        endpointName: 'cartesia-sonic-realtime-endpoint',
        tts: { payload: 'cartesia', model: 'sonic-3', voices: { agent: 'voice-id' } },
      },
    };
    const asConst = {
      providers,
      routes: {
        tts: { providers: ['eleven', 'cartesia'], strategy: 'latency', midStream: 'resume' },
        stt: { providers: ['deepgram'], firstChunkTimeoutMs: 30_000, midStream: 'replay' },
        chat: { providers: ['claude'], hedge: { after: 'auto', maxShare: 0.1 } },
      },
      defaults: { routes: { connectTimeoutMs: 1500, firstChunkTimeoutMs: 'auto' } },
      health: { store: 'redis', url: { env: 'REDIS_URL' } },
    } as const;
    const factory: ConfigFactory = ({ env }) => ({
      providers: { gpu: { kind: 'openai-compatible', baseUrl: env.GPU_URL ?? 'http://127.0.0.1:8000/v1' } },
      routes: {},
    });
    expectTypeOf(defineConfig(asConst)).toEqualTypeOf<RouterConfig>();
    expectTypeOf(factory).returns.toEqualTypeOf<RouterConfig | Promise<RouterConfig>>();

    // @ts-expect-error an unknown key in a route
    defineConfig({ providers, routes: { tts: { providers: ['eleven'], stratgy: 'latency' } } });
    // @ts-expect-error a secret is a string or { env }, not { value }
    defineConfig({ providers: { o: { kind: 'openai', apiKey: { value: 'k' } } }, routes: {} });
    // @ts-expect-error hedge.after is "auto", "p95", "p99" or ms
    defineConfig({ providers, routes: { tts: { providers: ['eleven'], hedge: { after: 'p50' } } } });

    // The configs are valid, not only well typed.
    const env = { EC2_API_KEY: 'k', OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', ELEVENLABS_API_KEY: 'k' };
    const more = { DEEPGRAM_API_KEY: 'k', CARTESIA_API_KEY: 'k', REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(Object.keys(parseConfig(written, { env }).routes)).toEqual(['tts', 'stt', 'chat', 'tts-premium']);
    expect(Object.keys(parseConfig(asConst, { env: { ...env, ...more } }).providers)).toEqual([
      'claude',
      'eleven',
      'deepgram',
      'cartesia',
      'sonic',
    ]);
  });
});
