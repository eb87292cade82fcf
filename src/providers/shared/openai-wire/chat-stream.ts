import { ProtocolError } from '../../../errors/index.js';
import type { ChatEvent, ChatUsage, FinishReason } from '../../../types/chat.js';
import type { ChatStreamReport } from '../../types.js';
import { failedFinishError } from '../failed-finish-reason.js';
import { badToolArguments, toolArgumentsText } from '../tool-arguments.js';
import type { ChatChunk } from './api-types.js';

/** OpenAI `finish_reason` to voxroute's FinishReason; anything unknown is `'other'`. */
export function mapFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

interface PendingToolCall {
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

/** The events of a chunk that has none (most chunks have one): one array for all, never written to. */
const NO_EVENTS = Object.freeze([]) as unknown as ChatEvent[];

/**
 * Turns the parsed chunks of one Chat Completions stream into ChatEvents (choice 0 only; a
 * request asks for one choice):
 * - a `text-delta` for each non-empty `content` (and `refusal`: it is what the model says);
 * - tool calls assembled from `tool_calls` fragments by `index` (first `id` and `name` seen,
 *   `arguments` concatenated), emitted whole, in index order, when `finish_reason` arrives; a
 *   fragment without `index` (absent or `null`) continues the call of its `id`, a new `id`
 *   starts a new call, and a fragment with no `id` either continues the last call; `arguments`
 *   sent as a JSON object count as its JSON text; the joined `arguments` must be one JSON
 *   object (empty: `'{}'`, see `toolArgumentsText`): a call whose arguments are not is dropped
 *   when `finish_reason` is `length` (the token limit cut it), else a ProtocolError;
 * - one `finish` at the end, with the mapped finish reason and the last usage seen (the usage
 *   chunk with `choices: []` comes after the finish-reason chunk, so `finish` waits for
 *   `[DONE]` or the end of the body).
 * `hadOutput` tells whether a text-delta or tool-call was produced (for `partialOutput`). Each
 * `tool_calls` fragment is told to `report` (when given) as it is read, keyed as above.
 */
export class ChatStreamAssembler {
  /** True once a text-delta or tool-call event has been produced. */
  hadOutput = false;
  private finishReason: FinishReason | undefined;
  private usage: ChatUsage | undefined;
  /** Tool calls being assembled, by index; made on the first fragment. */
  private toolCalls: Map<number, PendingToolCall> | undefined;
  /** The key of each tool call's `id` (for fragments without `index`); made on the first id. */
  private keyOfId: Map<string, number> | undefined;
  /** The key of the tool call created last (a fragment with neither `index` nor `id` continues it). */
  private lastCreatedKey: number | undefined;
  private toolCallsEmitted = false;

  constructor(
    private readonly provider: string,
    private readonly report?: ChatStreamReport,
  ) {}

  /**
   * Events for one chunk, in order (an array the caller only reads). Throws ProtocolError for a
   * tool call without a name, or whose arguments are not one JSON object (unless cut by the
   * token limit), and ProviderError (retryable) for a finish reason that says the server stopped
   * the generation (vLLM's `abort`, a gateway's `error`: see `failedFinishError`).
   */
  push(chunk: ChatChunk): ChatEvent[] {
    let events = NO_EVENTS;
    if (chunk.usage) {
      const { prompt_tokens, completion_tokens } = chunk.usage;
      if (typeof prompt_tokens === 'number' || typeof completion_tokens === 'number') {
        this.usage = { inputTokens: prompt_tokens ?? 0, outputTokens: completion_tokens ?? 0 };
      }
    }
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta;
      if (delta) {
        events = this.addText(events, delta.content);
        events = this.addText(events, delta.refusal);
        if (delta.tool_calls && !this.toolCallsEmitted) {
          const fragments = delta.tool_calls;
          for (let position = 0; position < fragments.length; position++) {
            const fragment = fragments[position]!;
            const key = this.keyOf(fragment.index ?? undefined, fragment.id);
            const call = this.callOf(key, fragment.id);
            if (!call.id && fragment.id) call.id = fragment.id;
            if (!call.name && fragment.function?.name) call.name = fragment.function.name;
            const args = fragment.function?.arguments;
            const text = typeof args === 'string' ? args : args ? JSON.stringify(args) : '';
            call.arguments += text;
            this.report?.toolCall(key, {
              ...(fragment.id ? { id: fragment.id } : {}),
              ...(fragment.function?.name ? { name: fragment.function.name } : {}),
              arguments: text,
            });
          }
        }
      }
      if (choice.finish_reason && this.finishReason === undefined) {
        const failed = failedFinishError(this.provider, choice.finish_reason, this.hadOutput);
        if (failed) throw failed;
        this.finishReason = mapFinishReason(choice.finish_reason);
        const calls = this.flushToolCalls();
        if (calls.length > 0) events = events === NO_EVENTS ? calls : [...events, ...calls];
      }
    }
    return events;
  }

  /** `events` with a text-delta of `text` added when it is a non-empty string (NO_EVENTS is never written to). */
  private addText(events: ChatEvent[], text: unknown): ChatEvent[] {
    if (typeof text !== 'string' || text.length === 0) return events;
    this.hadOutput = true;
    const event: ChatEvent = { type: 'text-delta', text };
    if (events === NO_EVENTS) return [event];
    events.push(event);
    return events;
  }

  /** True once a `finish_reason` has been seen. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /**
   * The closing events once the stream ended: any tool calls not yet emitted, then `finish`.
   * `how` is `'done'` for `[DONE]` (a finish reason of `'other'` if none came) or `'eof'` for
   * the end of the body. Throws ProtocolError (retryable, `partialOutput` = `hadOutput`) when
   * the body ended with neither `[DONE]` nor a finish reason: the stream was truncated.
   */
  end(how: 'done' | 'eof'): ChatEvent[] {
    if (how === 'eof' && this.finishReason === undefined) {
      throw new ProtocolError('Chat stream ended without a finish reason or [DONE] (truncated)', {
        provider: this.provider,
        partialOutput: this.hadOutput,
      });
    }
    const events = this.flushToolCalls();
    const finish: ChatEvent = { type: 'finish', finishReason: this.finishReason ?? 'other' };
    if (this.usage) finish.usage = this.usage;
    events.push(finish);
    return events;
  }

  /**
   * The key of a fragment's call: its `index`; for a fragment without `index` (absent or
   * `null`), the call of its `id` when one has it, else (an `id` not seen yet) a new call after
   * the last one, so that complete calls sent one per chunk without `index` are not merged; with
   * no `id` either, the last call created (or the first).
   */
  private keyOf(index: number | undefined, id: string | null | undefined): number {
    if (index !== undefined) return index;
    const calls = this.toolCalls;
    if (id)
      return (
        this.keyOfId?.get(id) ?? (calls === undefined || calls.size === 0 ? 0 : Math.max(...calls.keys()) + 1)
      );
    return this.lastCreatedKey ?? 0;
  }

  /** The pending call of `key`, created when new; `id` is remembered as the key's (see {@link keyOf}). */
  private callOf(key: number, id: string | null | undefined): PendingToolCall {
    this.toolCalls ??= new Map();
    const calls = this.toolCalls;
    let call = calls.get(key);
    if (!call) {
      call = { id: undefined, name: undefined, arguments: '' };
      calls.set(key, call);
      this.lastCreatedKey = key;
    }
    if (id && !call.id) {
      this.keyOfId ??= new Map();
      this.keyOfId.set(id, key);
    }
    return call;
  }

  private flushToolCalls(): ChatEvent[] {
    if (this.toolCallsEmitted) return [];
    this.toolCallsEmitted = true;
    const events: ChatEvent[] = [];
    const toolCalls = this.toolCalls;
    if (toolCalls === undefined) return events;
    for (const index of [...toolCalls.keys()].sort((a, b) => a - b)) {
      const call = toolCalls.get(index)!;
      if (!call.name) {
        throw new ProtocolError(`Tool call at index ${index} has no function name`, {
          provider: this.provider,
          partialOutput: this.hadOutput,
        });
      }
      const id = call.id ?? `call_${index}`;
      const args = toolArgumentsText(call.arguments);
      if (args === undefined) {
        // Cut by the token limit: no call was made (the finish says 'length'); else malformed.
        if (this.finishReason === 'length') continue;
        throw badToolArguments(this.provider, { id, name: call.name, text: call.arguments }, this.hadOutput);
      }
      this.hadOutput = true;
      events.push({ type: 'tool-call', id, name: call.name, arguments: args });
    }
    return events;
  }
}
