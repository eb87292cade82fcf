import { type APIConnectOptions, DEFAULT_API_CONNECT_OPTIONS, llm, shortuuid } from '@livekit/agents';
import type { ChatMessage, ChatTool, Router } from 'voxroute';
import { toChatMessages, toChatTools } from './chat-context.js';
import { toAPIError } from './errors.js';
import { checkPluginArgs } from './plugin-args.js';

/** Options of {@link LLM}. */
export interface LLMOptions {
  /** Logical model of the router config (mapped per provider). Required. */
  model: string;
  /** Route of the router config to call. Default: the router's default (`'chat'`). */
  route?: string | undefined;
  /** Sampling temperature passed to the providers. */
  temperature?: number | undefined;
  /** Largest number of tokens to generate. */
  maxTokens?: number | undefined;
}

/**
 * voxroute's chat route as a LiveKit agents LLM: `chat()` sends the chat context (and the
 * function tools, unless `toolChoice` is `'none'`) to `router.chat()` and streams text deltas,
 * complete tool calls and a last chunk with token usage.
 *
 * A failure surfaces as a non-retryable `APIError`: voxroute has already fallen back across
 * the route. Closing the stream closes the provider call at once.
 *
 * @throws TypeError when `router` is not a router or `model` is missing.
 */
export class LLM extends llm.LLM {
  readonly #router: Router;
  readonly #options: LLMOptions;

  /**
   * `router`: the voxroute router to call (it stays yours: close it yourself); `options.model`:
   * the logical model of the router config, required.
   * @throws TypeError when `router` is not a voxroute router or `options.model` is missing or empty.
   */
  constructor(router: Router, options: LLMOptions) {
    checkPluginArgs('voxroute.LLM', router, options);
    if (!options?.model)
      throw new TypeError('voxroute.LLM: options.model (a logical model of the router config) is required');
    super();
    this.#router = router;
    this.#options = { ...options };
  }

  /** Name of this LLM in LiveKit's logs and metrics: `'voxroute.LLM'`. */
  override label(): string {
    return 'voxroute.LLM';
  }

  /** The logical model. */
  override get model(): string {
    return this.#options.model;
  }

  override get provider(): string {
    return 'voxroute';
  }

  override chat({
    chatCtx,
    toolCtx,
    connOptions = DEFAULT_API_CONNECT_OPTIONS,
    toolChoice,
  }: {
    chatCtx: llm.ChatContext;
    toolCtx?: llm.ToolContextLike;
    connOptions?: APIConnectOptions;
    parallelToolCalls?: boolean;
    toolChoice?: llm.ToolChoice;
    extraKwargs?: Record<string, unknown>;
  }): llm.LLMStream {
    return new LLMStream(
      this,
      { chatCtx, ...(toolCtx ? { toolCtx } : {}), connOptions },
      (messages, tools, signal) => {
        const { model, route, temperature, maxTokens } = this.#options;
        const stream = this.#router.chat({
          messages,
          model,
          signal,
          ...(tools && toolChoice !== 'none' ? { tools } : {}),
          ...(route ? { route } : {}),
          ...(temperature === undefined ? {} : { temperature }),
          ...(maxTokens === undefined ? {} : { maxTokens }),
        });
        stream.result.catch(() => {});
        return stream;
      },
    );
  }
}

type Call = (
  messages: ChatMessage[],
  tools: ChatTool[] | undefined,
  signal: AbortSignal,
) => ReturnType<Router['chat']>;

class LLMStream extends llm.LLMStream {
  readonly #call: Call;

  constructor(
    owner: LLM,
    init: { chatCtx: llm.ChatContext; toolCtx?: llm.ToolContextLike; connOptions: APIConnectOptions },
    call: Call,
  ) {
    super(owner, init);
    this.#call = call;
  }

  protected override async run(): Promise<void> {
    const id = shortuuid('vox_');
    try {
      const events = this.#call(
        toChatMessages(this.chatCtx),
        toChatTools(this.toolCtx),
        this.abortController.signal,
      );
      for await (const event of events) {
        if (event.type === 'text-delta') {
          this.queue.put({ id, delta: { role: 'assistant', content: event.text } });
        } else if (event.type === 'tool-call') {
          const call = llm.FunctionCall.create({ callId: event.id, name: event.name, args: event.arguments });
          this.queue.put({ id, delta: { role: 'assistant', toolCalls: [call] } });
        } else if (event.usage) {
          const { inputTokens, outputTokens } = event.usage;
          this.queue.put({
            id,
            usage: {
              promptTokens: inputTokens,
              completionTokens: outputTokens,
              promptCachedTokens: 0,
              totalTokens: inputTokens + outputTokens,
            },
          });
        }
      }
    } catch (error) {
      if (this.abortController.signal.aborted) return;
      throw toAPIError(error);
    }
  }
}
