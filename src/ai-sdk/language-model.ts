import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { ChatEvent, ChatUsage, FinishReason, RoutedStream, RouteResult } from 'voxroute';
import { type ChatInput, toChatInput } from './prompt.js';
import { RouteModel } from './route-model.js';

/** Options of {@link createVoxroute}'s `languageModel()`. */
export interface VoxrouteModelOptions {
  /** Route of the router config to call. Default: the router's default (`'chat'`). */
  route?: string | undefined;
}

/**
 * A voxroute chat route as an AI SDK language model (specification v4): `doStream` streams
 * `router.chat()` (text deltas, complete tool calls, finish with usage); `doGenerate` collects
 * the same stream. `modelId` is the logical model name the router config maps per provider.
 *
 * Errors: a failure before the first event (every provider of the route failed, a bad prompt)
 * is thrown by `doStream`/`doGenerate`, as an HTTP error is by other providers; a failure
 * after it arrives as an `error` stream part. They are voxroute errors (not `APICallError`),
 * so the AI SDK does not retry them: voxroute has already fallen back across the route.
 */
export class VoxrouteLanguageModel extends RouteModel<VoxrouteModelOptions> implements LanguageModelV4 {
  readonly provider = 'voxroute.chat';
  /** voxroute sends no URL to providers: every file part is refused (chat is text only). */
  readonly supportedUrls: Record<string, RegExp[]> = {};

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const input = toChatInput(options);
    const events = this.start(input, options);
    const iterator = events[Symbol.asyncIterator]();
    // Wait for the first event, so that a call no provider could serve throws here.
    const first = await iterator.next();
    return {
      stream: toStreamParts(first, iterator, events.result, input, this.modelId),
      request: { body: requestBody(input) },
    };
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const input = toChatInput(options);
    const events = this.start(input, options);
    const content: LanguageModelV4Content[] = [];
    let text = '';
    let finish: Extract<ChatEvent, { type: 'finish' }> | undefined;
    for await (const event of events) {
      if (event.type === 'text-delta') text += event.text;
      else if (event.type === 'tool-call') {
        content.push({
          type: 'tool-call',
          toolCallId: event.id,
          toolName: event.name,
          input: event.arguments,
        });
      } else finish = event;
    }
    if (text) content.unshift({ type: 'text', text });
    return {
      content,
      finishReason: finishReason(finish?.finishReason),
      usage: usage(finish?.usage),
      providerMetadata: metadata(await events.result),
      request: { body: requestBody(input) },
      response: { modelId: this.modelId, timestamp: new Date() },
      warnings: input.warnings,
    };
  }

  private start(input: ChatInput, options: LanguageModelV4CallOptions): RoutedStream<ChatEvent> {
    const stream = this.router.chat({
      messages: input.messages,
      model: this.modelId,
      ...(options.maxOutputTokens === undefined ? {} : { maxTokens: options.maxOutputTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(input.tools ? { tools: input.tools } : {}),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
      ...(this.options.route ? { route: this.options.route } : {}),
    });
    // `result` rejects with the iterator's error; the iterator reports it, so keep it from being unhandled.
    stream.result.catch(() => {});
    return stream;
  }
}

/** What the call sent, for the AI SDK's `request.body` (messages and tools; never a secret). */
function requestBody(input: ChatInput): unknown {
  return { messages: input.messages, ...(input.tools ? { tools: input.tools } : {}) };
}

/** voxroute's finish reason in the AI SDK's shape (the unified values are the same words). */
export function finishReason(reason: FinishReason | undefined): LanguageModelV4FinishReason {
  return { unified: reason ?? 'other', raw: reason };
}

/** voxroute's token counts in the AI SDK's shape; unknown counts stay undefined. */
export function usage(u: ChatUsage | undefined): LanguageModelV4Usage {
  return {
    inputTokens: { total: u?.inputTokens, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: u?.outputTokens, text: undefined, reasoning: undefined },
  };
}

/** `providerMetadata.voxroute`: the provider that served and how the route got there. */
export function metadata(result: RouteResult): SharedV4ProviderMetadata {
  return {
    voxroute: {
      provider: result.provider,
      attempts: result.attempts.map((a) => ({ provider: a.provider, outcome: a.outcome })),
      timeToFirstChunkMs: result.timeToFirstChunkMs,
      durationMs: result.durationMs,
    },
  };
}

/** The chat events as AI SDK stream parts; cancelling the stream closes the provider call (barge-in). */
function toStreamParts(
  first: IteratorResult<ChatEvent>,
  iterator: AsyncIterator<ChatEvent>,
  result: Promise<RouteResult>,
  input: ChatInput,
  modelId: string,
): ReadableStream<LanguageModelV4StreamPart> {
  const TEXT_ID = 'txt-0';
  let textOpen = false;
  let pending: IteratorResult<ChatEvent> | undefined = first;
  let started = false;
  let done = false;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue({ type: 'stream-start', warnings: input.warnings });
        controller.enqueue({ type: 'response-metadata', modelId, timestamp: new Date() });
      }
      let next: IteratorResult<ChatEvent>;
      try {
        next = pending ?? (await iterator.next());
      } catch (error) {
        done = true;
        controller.enqueue({ type: 'error', error });
        controller.close();
        return;
      }
      pending = undefined;
      if (next.done) {
        done = true;
        controller.close();
        return;
      }
      const event = next.value;
      if (event.type === 'text-delta') {
        if (!textOpen) {
          textOpen = true;
          controller.enqueue({ type: 'text-start', id: TEXT_ID });
        }
        controller.enqueue({ type: 'text-delta', id: TEXT_ID, delta: event.text });
        return;
      }
      if (textOpen) {
        textOpen = false;
        controller.enqueue({ type: 'text-end', id: TEXT_ID });
      }
      if (event.type === 'tool-call') {
        controller.enqueue({ type: 'tool-input-start', id: event.id, toolName: event.name });
        controller.enqueue({ type: 'tool-input-delta', id: event.id, delta: event.arguments });
        controller.enqueue({ type: 'tool-input-end', id: event.id });
        controller.enqueue({
          type: 'tool-call',
          toolCallId: event.id,
          toolName: event.name,
          input: event.arguments,
        });
        return;
      }
      // finish is the router's last event: its result is settled once the iterator ends.
      const end = await iterator.next().catch((error: unknown) => ({ error }));
      if ('error' in end) {
        done = true;
        controller.enqueue({ type: 'error', error: end.error });
        controller.close();
        return;
      }
      controller.enqueue({
        type: 'finish',
        finishReason: finishReason(event.finishReason),
        usage: usage(event.usage),
        providerMetadata: metadata(await result),
      });
      done = true;
      controller.close();
    },
    async cancel() {
      if (!done) await iterator.return?.();
    },
  });
}
