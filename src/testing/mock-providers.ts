import { didYouMean, firstUnknownKey } from '../config/did-you-mean.js';
import { isResolvedConfig, withResolvedProviders } from '../config/resolve.js';
import type {
  ProviderConfig,
  ResolvedConfig,
  ResolvedProviderConfig,
  RouterConfig,
} from '../config/types.js';
import { ownValue, setOwn } from '../internal/own.js';
import { valueShape } from '../internal/value-shape.js';
import { type AnthropicMock, type AnthropicMockOptions, createAnthropicMock } from './anthropic/mock.js';
import { type CartesiaMock, type CartesiaMockOptions, createCartesiaMock } from './cartesia/mock.js';
import { createDeepgramMock, type DeepgramMock, type DeepgramMockOptions } from './deepgram/mock.js';
import { createElevenLabsMock, type ElevenLabsMock, type ElevenLabsMockOptions } from './elevenlabs/mock.js';
import { MOCK_API_KEY, mockCredentials } from './mock-keys.js';
import { type CheckedMockKind, checkMockOptions } from './mock-options.js';
import type { MockProvider } from './mock-provider.js';
import { serveMock } from './mock-server.js';
import { configModels } from './openai/config-models.js';
import {
  createOpenAiCompatibleMock,
  type OpenAiCompatibleMock,
  type OpenAiCompatibleMockOptions,
} from './openai/mock.js';
import type { RecordedRequest } from './recorded-request.js';
import { mockOptionError, optionErrorOf } from './reply-checks.js';
import {
  type SageMakerChatPayload,
  type SageMakerTtsPayload,
  sageMakerChatEndpoint,
  sageMakerSttEndpoint,
  sageMakerTtsEndpoint,
} from './sagemaker/endpoints.js';
import type { SageMakerMock } from './sagemaker/mock.js';
import { type SageMakerEmulatorOptions, startSageMakerEmulator } from './sagemaker/server.js';
import type { SageMakerEndpoint } from './sagemaker/types.js';
import { type LoopbackCertificate, makeLoopbackCertificate } from './tls-certificate.js';

export { MOCK_API_KEY };

/** Static AWS credentials put in the returned config of SageMaker providers (never checked; frozen, each config gets a copy). */
export const MOCK_AWS_CREDENTIALS = Object.freeze({
  accessKeyId: 'voxroute-mock-access-key-id',
  secretAccessKey: 'voxroute-mock-secret-access-key',
} as const);

/** The mock type behind each provider kind. */
export interface MockOfKind {
  /** OpenAI: the OpenAI-compatible mock. */
  openai: OpenAiCompatibleMock;
  /** An OpenAI-compatible server: the OpenAI-compatible mock. */
  'openai-compatible': OpenAiCompatibleMock;
  /** Anthropic: the Messages API mock. */
  anthropic: AnthropicMock;
  /** Cartesia: the TTS (bytes, SSE, WebSocket) and STT WebSocket mock. */
  cartesia: CartesiaMock;
  /** Deepgram: the `/v1/speak` and `/v1/listen` mock. */
  deepgram: DeepgramMock;
  /** ElevenLabs: the HTTP stream and stream-input WebSocket mock. */
  elevenlabs: ElevenLabsMock;
  /** SageMaker: the SageMaker Runtime emulator's mock. */
  sagemaker: SageMakerMock;
}

/** The options of the mock factory behind each provider kind. */
export interface MockOptionsOfKind {
  /** Options of `createOpenAiCompatibleMock`, for an `openai` provider. */
  openai: OpenAiCompatibleMockOptions;
  /** Options of `createOpenAiCompatibleMock`, for an `openai-compatible` provider. */
  'openai-compatible': OpenAiCompatibleMockOptions;
  /** Options of `createAnthropicMock`. */
  anthropic: AnthropicMockOptions;
  /** Options of `createCartesiaMock`. */
  cartesia: CartesiaMockOptions;
  /** Options of `createDeepgramMock`. */
  deepgram: DeepgramMockOptions;
  /** Options of `createElevenLabsMock`. */
  elevenlabs: ElevenLabsMockOptions;
  /** Options of `startSageMakerEmulator` (its endpoints, by endpoint name). */
  sagemaker: SageMakerEmulatorOptions;
}

/** A provider kind that {@link startMockProviders} can mock. */
export type MockedProviderKind = keyof MockOfKind;

/**
 * One running mock of {@link startMockProviders}, discriminated by `kind`: narrow on `kind` to
 * get the typed mock (`if (m.kind === 'deepgram') m.mock.listenSessions`).
 */
export type RunningMock = {
  [K in MockedProviderKind]: {
    /** The provider kind mocked, as in the config. */
    kind: K;
    /** Origin of its loopback server, e.g. `http://127.0.0.1:40123` (`https://...` with `tls: true`). */
    url: string;
    /** The mock itself (its record, counters, sessions). */
    mock: MockOfKind[K];
    /** Every HTTP request and WebSocket upgrade it received, in arrival order (the mock's own array). */
    requests: RecordedRequest[];
  };
}[MockedProviderKind];

/**
 * Options of {@link startMockProviders}.
 *
 * @example
 * ```ts
 * const options: StartMockProvidersOptions = {
 *   providers: { gpu: { chat: 'Your table is booked.', script: { chat: { firstChunkDelayMs: 20 } } } },
 * };
 * ```
 */
export interface StartMockProvidersOptions {
  /**
   * Per provider name (as in `config.providers`): options given to that provider's mock
   * factory (`createOpenAiCompatibleMock`, `createAnthropicMock`, `createCartesiaMock`,
   * `createDeepgramMock`, `createElevenLabsMock`, `startSageMakerEmulator`), e.g. replies,
   * transcripts, scripts of latency and faults. `apiKey` (the key the mock requires) defaults
   * to {@link MOCK_API_KEY}, or to none for an `openai-compatible` provider without `apiKey`.
   * For SageMaker, `endpoints` replaces the endpoint made from the config. Default: none.
   */
  providers?: { [name: string]: MockOptionsOfKind[MockedProviderKind] } | undefined;
  /** Interface the loopback servers listen on. Default `'127.0.0.1'`. */
  host?: string | undefined;
  /**
   * Serve HTTPS and WSS instead of HTTP and WS, for clients that always dial `https://` or
   * `wss://`. Default: false. One self-signed certificate (ECDSA P-256, valid for one day, for
   * `localhost`, `127.0.0.1`, `::1` and `host`) is made at start and shared by every mock; it
   * is returned as {@link MockProviders.ca}, for clients to trust: voxroute's router with
   * `createRouter(config, { ca })`. Needs the `selfsigned` package (optional peer dependency);
   * without it `startMockProviders` rejects with an Error saying so. The SageMaker emulator
   * stays plain HTTP (h2c): its `endpointUrl` keeps `http://`.
   */
  tls?: boolean | undefined;
}

/**
 * What {@link startMockProviders} returns.
 *
 * @example
 * ```ts
 * const { config, mocks, close } = await startMockProviders(myConfig);
 * const router = createRouter(config);
 * // ... run the code under test ...
 * expect(mocks.gpu!.requests.map((r) => r.endpoint)).toEqual(['chat']);
 * await router.close();
 * await close();
 * ```
 */
export interface MockProviders<C extends RouterConfig | ResolvedConfig = RouterConfig> {
  /**
   * A copy of the input config with every provider pointed at its mock: `baseUrl` (or
   * `endpointUrl` for SageMaker) set to the loopback server, `apiKey` set to
   * {@link MOCK_API_KEY} (none added to an `openai-compatible` provider that has none), every
   * credential header (`X-Api-Key`, `Authorization`...) whose variable was not set
   * (`MOCK_ENV_FALLBACK` from `mockEnv()`, or `{ env: 'NAME' }` in a config as written)
   * set to {@link MOCK_API_KEY} (SageMaker: `credentials` set to {@link MOCK_AWS_CREDENTIALS}).
   * Routes, voices, models and every other field are unchanged. It is of the form given: a
   * config as written (`defineConfig`) gives one as written, and a resolved config (from
   * `loadConfig` or `parseConfig`) gives a resolved config, which `createRouter` takes as is.
   */
  config: C;
  /**
   * With `tls: true`, the certificate every mock serves (PEM, self-signed): the CA to trust.
   * Give it to voxroute as `createRouter(config, { ca })`, to undici as
   * `new Agent({ connect: { ca } })`, to ws as `{ ca }`, or write it to a file for
   * `NODE_EXTRA_CA_CERTS`, `curl --cacert`, Python's `SSL_CERT_FILE`. Undefined without TLS.
   */
  ca: string | undefined;
  /** Per provider name: its running mock. */
  mocks: Record<string, RunningMock>;
  /** Stops every server and drops their connections (open streams end as aborted). */
  close(): Promise<void>;
}

/**
 * Starts one wire-accurate mock per provider of `config` (a config as written, or the resolved
 * one `loadConfig`/`parseConfig` return), each on its own loopback port, and returns the
 * config, in the same form, pointed at them: the router then runs over its real transport (undici,
 * WebSocket, HTTP/2 for SageMaker bidirectional streams) with no network and no real keys.
 *
 * Kinds: `openai` and `openai-compatible` (the OpenAI-compatible mock, `baseUrl` `<url>/v1`,
 * listing the provider's model ids on `GET /models`: its chat models, `tts.model`, `stt.model`;
 * in dialect `'vllm'` when its chat section sets `continueFinalMessage: true`, unless the
 * provider's options name a dialect),
 * `anthropic`, `cartesia`, `deepgram`, `elevenlabs` (`baseUrl` `<url>`), and `sagemaker` (the
 * SageMaker emulator at `endpointUrl`, with one endpoint named as the config's `endpointName`:
 * a chat endpoint when the provider has a `chat` section, else a TTS endpoint in the config's
 * `tts.payload`, else an STT endpoint).
 *
 * With `tls: true` every mock but SageMaker's serves `https://` and `wss://` with one
 * self-signed certificate, returned as `ca`: `createRouter(mocks.config, { ca: mocks.ca })`.
 *
 * Throws (the promise rejects with) a `TypeError` when `config` is not an object, when
 * `config.providers` is missing or empty (no provider: nothing to mock, and no router takes such a
 * config), naming the provider when a provider's kind is not one of these, or naming the field (`options.providers.<name>.chat.toolCalls.0.arguments`,
 * `options.providers.<name>.script.failTimes`) when an option is unknown (a misspelt script key, a
 * name in `options.providers` that is not a provider of the config) or of the wrong type or
 * range; the options are checked before any server starts. Rejects when a port
 * cannot be bound, and when the config has a Cartesia, Deepgram or ElevenLabs provider (their
 * mocks serve WebSockets) and the optional peer `ws` is not installed: an Error naming it
 * (`npm i -D ws`).
 *
 * @example
 * ```ts
 * const mocks = await startMockProviders(await loadConfig('voxroute.config.ts'));
 * const router = createRouter(mocks.config);
 * for await (const chunk of router.tts({ text: 'Hi', voice: 'agent' })) play(chunk.data);
 * await router.close();
 * await mocks.close();
 * ```
 */
export async function startMockProviders<C extends RouterConfig | ResolvedConfig = RouterConfig>(
  config: C,
  options: StartMockProvidersOptions = {},
): Promise<MockProviders<C>> {
  if (typeof config !== 'object' || config === null)
    throw new TypeError(
      `startMockProviders(config, options?): config must be a router config ({ providers, routes }), got ${valueShape(config)}`,
    );
  const providers = config.providers as Record<string, ProviderConfig> | undefined;
  if (providers === null || typeof providers !== 'object') {
    throw new TypeError('startMockProviders: config.providers must be an object of providers');
  }
  // Nothing to mock, and no router takes a config without providers (see docs/decisions.md).
  if (Object.keys(providers).length === 0)
    throw new TypeError(
      'startMockProviders: config.providers is empty: give at least one provider to mock (a router config needs one)',
    );
  for (const [name, provider] of Object.entries(providers)) {
    const kind: unknown = (provider as { kind?: unknown } | undefined)?.kind;
    if (!isMockedKind(kind)) {
      throw new TypeError(
        `startMockProviders: provider "${name}" has kind ${JSON.stringify(kind)}, which has no mock`,
      );
    }
  }
  checkStartOptions(options, providers);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  };
  const mocks: Record<string, RunningMock> = {};
  const pointed: Record<string, ProviderConfig> = {};
  const certificate =
    options.tls === true ? await makeLoopbackCertificate(options.host ?? '127.0.0.1') : undefined;
  try {
    for (const [name, provider] of Object.entries(providers)) {
      const extra = options.providers ? ownValue(options.providers, name) : undefined;
      const started = await startOne(provider, extra, options.host, certificate).catch((error: unknown) => {
        // A mock's option check names the field; say which provider's options it is in.
        const option = optionErrorOf(error);
        if (option) {
          throw mockOptionError(
            `startMockProviders: options.providers.${name}${option.path ? `.${option.path}` : ''}`,
            option.problem,
          );
        }
        throw error;
      });
      closers.push(started.close);
      // Defined, not assigned: a provider named `__proto__` stays an entry, so that createRouter
      // reports it (a reserved name) instead of never seeing it.
      setOwn(mocks, name, started.running);
      setOwn(pointed, name, started.config);
    }
  } catch (error) {
    await close();
    throw error;
  }
  // A resolved config stays resolved (its mark is not an enumerable key, so a spread would drop
  // it and createRouter would then reject the resolved routes' `name` as an unknown key).
  const copy = isResolvedConfig(config)
    ? withResolvedProviders(config, pointed as Record<string, ResolvedProviderConfig>)
    : { ...config, providers: pointed };
  return {
    config: copy as C,
    ca: certificate?.cert,
    mocks,
    close,
  };
}

const START_OPTION_KEYS = Object.keys({
  providers: true,
  host: true,
  tls: true,
} satisfies Record<keyof StartMockProvidersOptions, true>);

/**
 * Checks the options of {@link startMockProviders} before any server starts: known keys, each
 * name in `providers` a provider of the config, and each provider's mock options (checkMockOptions).
 * @throws TypeError `startMockProviders: options.<path>: <what is wrong>`.
 */
function checkStartOptions(options: unknown, providers: Record<string, ProviderConfig>): void {
  const fail = (path: string, problem: string): never => {
    throw mockOptionError(`startMockProviders: ${path}`, problem);
  };
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    fail('options', `expected an object (StartMockProvidersOptions), got ${valueShape(options)}`);
  const given = options as Record<string, unknown>;
  const unknown = firstUnknownKey(given, START_OPTION_KEYS);
  if (unknown !== undefined) {
    const { key, near } = unknown;
    fail(
      `options.${key}`,
      `unknown option${near ? ` (did you mean '${near}'?)` : ''}; the options are ${START_OPTION_KEYS.join(', ')}`,
    );
  }
  if (given.host !== undefined && typeof given.host !== 'string')
    fail('options.host', `expected a string, got ${valueShape(given.host)}`);
  if (given.tls !== undefined && typeof given.tls !== 'boolean')
    fail('options.tls', `expected a boolean, got ${valueShape(given.tls)}`);
  const perProvider = given.providers;
  if (perProvider === undefined) return;
  if (typeof perProvider !== 'object' || perProvider === null || Array.isArray(perProvider))
    fail(
      'options.providers',
      `expected an object of mock options by provider name, got ${valueShape(perProvider)}`,
    );
  const names = Object.keys(providers);
  for (const [name, value] of Object.entries(perProvider as Record<string, unknown>)) {
    const provider = ownValue(providers, name);
    if (!provider) {
      const near = didYouMean(name, names);
      fail(
        `options.providers.${name}`,
        `no provider of the config is named so${near ? ` (did you mean '${near}'?)` : ''}; its providers are ${names.join(', ')}`,
      );
    }
    const kind = provider!.kind === 'openai-compatible' ? 'openai' : (provider!.kind as CheckedMockKind);
    try {
      checkMockOptions(kind, value);
    } catch (error) {
      const option = optionErrorOf(error);
      if (option) fail(`options.providers.${name}${option.path ? `.${option.path}` : ''}`, option.problem);
      throw error;
    }
  }
}

interface Started {
  running: RunningMock;
  config: ProviderConfig;
  close(): Promise<void>;
}

const KINDS: readonly string[] = [
  'openai',
  'openai-compatible',
  'anthropic',
  'cartesia',
  'deepgram',
  'elevenlabs',
  'sagemaker',
];

function isMockedKind(kind: unknown): kind is MockedProviderKind {
  return typeof kind === 'string' && KINDS.includes(kind);
}

async function startOne(
  provider: ProviderConfig,
  extra: object | undefined,
  host: string | undefined,
  certificate: LoopbackCertificate | undefined,
): Promise<Started> {
  if (provider.kind === 'sagemaker') return startSageMaker(provider, extra as SageMakerEmulatorOptions, host);
  const openAi = provider.kind === 'openai' || provider.kind === 'openai-compatible';
  // The OpenAI-compatible mock lists the config's model ids on GET /models (options may say otherwise).
  const models = openAi ? { models: configModels(provider) } : {};
  // A server declared to continue a trailing assistant message is mocked as vLLM, which does.
  const dialect = continuesFinalMessage(provider) ? { dialect: 'vllm' } : {};
  // The key the config sends, also in credential headers whose variable was not set (mockCredentials).
  const { keyed, fields } = mockCredentials(provider);
  const key = keyed ? { apiKey: MOCK_API_KEY } : {};
  const mock = createMock(provider.kind, { ...key, ...models, ...dialect, ...extra });
  const server = await serveMock({ provider: mock, ...(host === undefined ? {} : { host }) }, certificate);
  const baseUrl = openAi ? `${server.url}/v1` : server.url;
  return {
    running: { kind: provider.kind, url: server.url, mock, requests: mock.requests } as RunningMock,
    config: { ...provider, baseUrl, ...fields } as ProviderConfig,
    close: server.close,
  };
}

/** True for a provider of kind `openai-compatible` whose chat section sets `continueFinalMessage`. */
function continuesFinalMessage(provider: ProviderConfig): boolean {
  return provider.kind === 'openai-compatible' && provider.chat?.continueFinalMessage === true;
}

function createMock(kind: Exclude<MockedProviderKind, 'sagemaker'>, options: object): MockProvider {
  switch (kind) {
    case 'openai':
    case 'openai-compatible':
      return createOpenAiCompatibleMock(options as OpenAiCompatibleMockOptions);
    case 'anthropic':
      return createAnthropicMock(options as AnthropicMockOptions);
    case 'cartesia':
      return createCartesiaMock(options as CartesiaMockOptions);
    case 'deepgram':
      return createDeepgramMock(options as DeepgramMockOptions);
    case 'elevenlabs':
      return createElevenLabsMock(options as ElevenLabsMockOptions);
  }
}

type SageMakerProvider = Extract<ProviderConfig, { kind: 'sagemaker' }>;

function sageMakerEndpoint(provider: SageMakerProvider): SageMakerEndpoint {
  if (provider.chat) {
    return sageMakerChatEndpoint({
      payload: (provider.chat.payload ?? 'openai-chat') as SageMakerChatPayload,
    });
  }
  if (provider.tts) return sageMakerTtsEndpoint({ payload: provider.tts.payload as SageMakerTtsPayload });
  return sageMakerSttEndpoint();
}

async function startSageMaker(
  provider: SageMakerProvider,
  extra: SageMakerEmulatorOptions | undefined,
  host: string | undefined,
): Promise<Started> {
  const emulator = await startSageMakerEmulator({
    endpoints: { [provider.endpointName]: sageMakerEndpoint(provider) },
    ...(host === undefined ? {} : { host }),
    ...extra,
  });
  return {
    running: { kind: 'sagemaker', url: emulator.url, mock: emulator.mock, requests: emulator.requests },
    config: { ...provider, endpointUrl: emulator.url, credentials: { ...MOCK_AWS_CREDENTIALS } },
    close: emulator.close,
  };
}
