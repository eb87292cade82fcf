import { VoxrouteError } from '../errors/voxroute-error.js';
import { LOAD_FAILED_HINT } from '../internal/lazy.js';
import type {
  AttemptContext,
  ChatProvider,
  ChatStreamReport,
  ProviderAdapter,
  ProviderChatRequest,
  ProviderSttRequest,
  ProviderTtsRequest,
  ProviderTtsStreamRequest,
  SttCapabilities,
  SttProvider,
  TtsProvider,
} from './types.js';

/** What {@link lazyAdapter} needs to stand in for an adapter whose code is not loaded yet. */
export interface LazyAdapterParts {
  /** The provider's name. */
  name: string;
  /** Whether the adapter will have a TTS capability (the config has a `tts` section). */
  tts: boolean;
  /**
   * The adapter's chat capability, when it has one (the config has a `chat` section): whether it
   * continues a trailing assistant message, known without its code because the router reads it
   * when it plans a call.
   */
  chat: { continuesAssistantMessage: boolean } | undefined;
  /**
   * The adapter's STT capabilities, when it has that capability: known without its code,
   * because the router reads them when it plans a call (TTS and chat capabilities are read only
   * once an attempt starts, after the load).
   */
  stt: SttCapabilities | undefined;
  /** Loads the adapter's code (a dynamic `import()`) and builds the adapter from it. */
  load: () => Promise<ProviderAdapter>;
  /** Called once with the built adapter, so that the owner can put it in the stand-in's place. */
  loaded?: (adapter: ProviderAdapter) => void;
}

/**
 * A stand-in for a provider adapter whose code loads in the background, so that
 * `import('voxroute')` compiles no provider's code: it loads once a router is made. The load
 * starts at once; `ready()` (see
 * `ProviderAdapter.ready`) resolves when it has ended (and the adapter's own `ready()`, e.g.
 * SageMaker's SDK, too), so the router starts an attempt's clock only then: a provider is not
 * charged for the load. Once built, the adapter is handed to `loaded` and the stand-in only
 * forwards to it (calls already planned on the stand-in). A failed load rejects nothing: it is
 * remembered as a VoxrouteError ({@link adapterLoadError}, the load's error as `cause`), thrown
 * by a call that needs the adapter (the router ends that call with it and charges no provider:
 * the install, not the provider, is at fault). The next `ready()` calls `load` again, but only
 * Node 24 and later import a module again after a failed `import()`: Node 20 and 22 keep the
 * failure for the life of the process (for this router and every later one), so the error
 * tells the user to restart the process. `close()` waits for a load in progress and closes
 * what it built.
 */
export function lazyAdapter(parts: LazyAdapterParts): ProviderAdapter {
  let built: ProviderAdapter | undefined;
  let failure: unknown;
  let loading: Promise<void> | undefined;
  const start = (): Promise<void> => {
    loading ??= parts.load().then(
      (adapter) => {
        built = adapter;
        failure = undefined;
        parts.loaded?.(adapter);
        return adapter.ready?.();
      },
      (error: unknown) => {
        // Not the provider's fault (a damaged install; every provider shares the module): a
        // usage-class error, which ends the call without charging any provider.
        failure = adapterLoadError(parts.name, error);
        loading = undefined;
      },
    );
    return loading;
  };
  const use = (): ProviderAdapter => {
    if (built) return built;
    throw failure ?? new Error(`The adapter of provider '${parts.name}' is still loading`);
  };
  const stub: { -readonly [K in keyof ProviderAdapter]: ProviderAdapter[K] } = {
    name: parts.name,
    ready: () => (built ? built.ready?.() : start()),
    close: async () => {
      await loading;
      await built?.close?.();
    },
  };
  if (parts.tts) stub.tts = lazyTts(() => use().tts as TtsProvider);
  if (parts.chat)
    stub.chat = lazyChat(parts.chat.continuesAssistantMessage, () => use().chat as ChatProvider);
  if (parts.stt) stub.stt = lazyStt(parts.stt, () => use().stt as SttProvider);
  void start();
  return stub;
}

/**
 * The error of a call whose provider's adapter code could not be loaded: a damaged install, or
 * a passing failure (EMFILE: too many open files) that Node 20 and 22 will not retry (they keep
 * a failed `import()` for the life of the process), hence "restart the process". `cause`: the
 * load's own error.
 */
export function adapterLoadError(provider: string, cause: unknown): VoxrouteError {
  return new VoxrouteError(
    `The adapter code of provider '${provider}' could not be loaded ${LOAD_FAILED_HINT}`,
    { cause },
  );
}

function lazyTts(use: () => TtsProvider): TtsProvider {
  return {
    get capabilities() {
      return use().capabilities;
    },
    synthesize: (request: ProviderTtsRequest | ProviderTtsStreamRequest, attempt: AttemptContext) =>
      use().synthesize(request, attempt),
  };
}

function lazyChat(continuesAssistantMessage: boolean, use: () => ChatProvider): ChatProvider {
  return {
    continuesAssistantMessage,
    chat: (request: ProviderChatRequest, attempt: AttemptContext, report?: ChatStreamReport) =>
      use().chat(request, attempt, report),
  };
}

function lazyStt(capabilities: SttCapabilities, use: () => SttProvider): SttProvider {
  return {
    capabilities,
    transcribe: (request: ProviderSttRequest, attempt: AttemptContext) => use().transcribe(request, attempt),
  };
}
