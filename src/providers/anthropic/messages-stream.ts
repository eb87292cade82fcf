import { ProtocolError } from '../../errors/index.js';
import type { ChatEvent, FinishReason } from '../../types/chat.js';
import { parseWire } from '../shared/parse-wire.js';
import { badToolArguments, toolArgumentsText } from '../shared/tool-arguments.js';
import type { WireShape } from '../shared/wire-shape.js';
import type { ChatStreamReport } from '../types.js';
import {
  type ContentBlockDelta,
  type ContentBlockStart,
  contentBlockDeltaShape,
  contentBlockStartShape,
  contentBlockStopShape,
  messageDeltaShape,
  messageStartShape,
} from './api-types.js';

/**
 * Anthropic `stop_reason` to voxroute's FinishReason (PROTOCOLS.md 6b; Anthropic SDK
 * `StopReason`): `end_turn` and `stop_sequence` -> `'stop'`; `max_tokens` and
 * `model_context_window_exceeded` -> `'length'`; `tool_use` -> `'tool-calls'`; `refusal` (a
 * safety classifier stopped the reply) -> `'content-filter'`; anything else (`pause_turn`,
 * unknown) -> `'other'`.
 */
export function mapStopReason(reason: string): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

type Block =
  | { kind: 'text' }
  | { kind: 'tool'; id: string; name: string; json: string; input: unknown }
  | { kind: 'other' };

/** A tool block that stopped with input that is not one JSON object, until the stop reason is known. */
interface CutTool {
  id: string;
  name: string;
  text: string;
}

/**
 * Turns the parsed events of one Messages stream into ChatEvents:
 * - `message_start`: input token count (`message.usage.input_tokens`);
 * - `content_block_start`: opens block `index` (`text`, `tool_use`; other types such as
 *   `thinking` are read and ignored); a text block's non-empty initial `text` is a text-delta;
 * - `content_block_delta`: `text_delta` -> a `text-delta` (empty ones dropped; one for a block
 *   that is not an open text block is a ProtocolError); `input_json_delta`
 *   -> `partial_json` appended to its tool block; other delta types (`thinking_delta`,
 *   `signature_delta`, `citations_delta`) ignored;
 * - `content_block_stop`: a tool block becomes one `tool-call` (`arguments` = the joined
 *   `partial_json`, or the JSON of the start's `input` when no delta came), when that is one
 *   JSON object (see `toolArgumentsText`). Input that is not (`{"city":`) is held: dropped
 *   when the stop reason then says the token limit cut the reply (`max_tokens`: the finish is
 *   `'length'`), else a ProtocolError at the next content, stop reason or `message_stop`;
 * - `message_delta`: the stop reason and usage (`output_tokens`, and `input_tokens` when present:
 *   the counts are cumulative);
 * - `ping` and unknown event types: ignored (the API may add event types).
 * {@link finish} gives the one `finish` at `message_stop`. `hadOutput` tells whether a
 * text-delta or tool-call was produced (for `partialOutput`). `report` (when given) is told of
 * each tool block as it streams, keyed by its block index: its id and name at
 * `content_block_start`, each `partial_json` as it comes (or, at `content_block_stop`, the
 * start's `input` when no delta came).
 */
export class MessageStreamAssembler {
  /** True once a text-delta or tool-call event has been produced. */
  hadOutput = false;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private stopReason: string | undefined;
  private readonly blocks = new Map<number, Block>();
  /** A tool block whose input did not end as one JSON object, until the stop reason tells why. */
  private cutTool: CutTool | undefined;

  constructor(
    private readonly provider: string,
    private readonly report?: ChatStreamReport,
  ) {}

  /**
   * Events for one stream event (its JSON data), in order. Throws ProtocolError (retryable,
   * `partialOutput` = `hadOutput`) for an event that does not fit its schema, a `tool_use`
   * block without id or name, a `text_delta` for a block that is not an open text block, an
   * `input_json_delta` for a block that is not a tool block, or
   * a tool block whose input is not one JSON object when the reply was not cut by the token limit.
   */
  push(data: { type: string; [field: string]: unknown }): ChatEvent[] {
    if (
      this.cutTool !== undefined &&
      (data.type === 'content_block_start' || data.type === 'content_block_delta')
    )
      throw this.badTool(this.cutTool);
    switch (data.type) {
      case 'message_start': {
        const usage = this.parse(messageStartShape, data).message.usage;
        if (typeof usage?.input_tokens === 'number') this.inputTokens = usage.input_tokens;
        return [];
      }
      case 'content_block_start':
        return this.start(this.parse(contentBlockStartShape, data));
      case 'content_block_delta':
        return this.delta(this.parse(contentBlockDeltaShape, data));
      case 'content_block_stop':
        return this.stop(this.parse(contentBlockStopShape, data).index);
      case 'message_delta': {
        const event = this.parse(messageDeltaShape, data);
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        if (typeof event.usage?.output_tokens === 'number') this.outputTokens = event.usage.output_tokens;
        if (typeof event.usage?.input_tokens === 'number') this.inputTokens = event.usage.input_tokens;
        if (this.stopReason !== undefined) this.settleCutTool();
        return [];
      }
      default:
        return [];
    }
  }

  /**
   * The closing `finish` at `message_stop`: the mapped stop reason (`'other'` when no
   * `message_delta` gave one) and the usage when a count was seen (a missing count is 0).
   * Throws ProtocolError when a tool block was never stopped (its input may be incomplete), or
   * stopped with input that is not one JSON object and the reply was not cut by the token limit.
   */
  finish(): ChatEvent[] {
    for (const [index, block] of this.blocks) {
      if (block.kind === 'tool') throw this.error(`tool_use block ${index} was never stopped`);
    }
    this.settleCutTool();
    const finish: ChatEvent = {
      type: 'finish',
      finishReason: this.stopReason === undefined ? 'other' : mapStopReason(this.stopReason),
    };
    if (this.inputTokens !== undefined || this.outputTokens !== undefined) {
      finish.usage = { inputTokens: this.inputTokens ?? 0, outputTokens: this.outputTokens ?? 0 };
    }
    return [finish];
  }

  /** The error of a body that ended before `message_stop` (truncated). */
  truncated(): ProtocolError {
    return this.error('Messages stream ended before message_stop (truncated)');
  }

  private start(event: ContentBlockStart): ChatEvent[] {
    const block = event.content_block;
    if (block.type === 'text') {
      this.blocks.set(event.index, { kind: 'text' });
      return this.text(block.text);
    }
    if (block.type === 'tool_use') {
      if (!block.id || !block.name) throw this.error(`tool_use block ${event.index} has no id or name`);
      this.blocks.set(event.index, {
        kind: 'tool',
        id: block.id,
        name: block.name,
        json: '',
        input: block.input,
      });
      this.report?.toolCall(event.index, { id: block.id, name: block.name });
      return [];
    }
    this.blocks.set(event.index, { kind: 'other' });
    return [];
  }

  private delta(event: ContentBlockDelta): ChatEvent[] {
    const { delta } = event;
    if (delta.type === 'text_delta') {
      // Text belongs to an open text block: a delta for a block never started, or for a tool
      // block, is not part of the reply (a gateway that merged or dropped events).
      if (this.blocks.get(event.index)?.kind !== 'text')
        throw this.error(`text_delta for block ${event.index}, not an open text block`);
      return this.text(delta.text);
    }
    if (delta.type === 'input_json_delta') {
      const block = this.blocks.get(event.index);
      if (block?.kind !== 'tool')
        throw this.error(`input_json_delta for block ${event.index}, not a tool_use block`);
      block.json += delta.partial_json ?? '';
      if (delta.partial_json) this.report?.toolCall(event.index, { arguments: delta.partial_json });
    }
    return [];
  }

  private stop(index: number): ChatEvent[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.kind !== 'tool') return [];
    const text = block.json !== '' ? block.json : JSON.stringify(block.input ?? {});
    if (block.json === '') this.report?.toolCall(index, { arguments: text });
    const args = toolArgumentsText(text);
    if (args === undefined) {
      // Cut by max_tokens (a stop reason still to come) or malformed: settleCutTool decides.
      if (this.cutTool !== undefined) throw this.badTool(this.cutTool);
      this.cutTool = { id: block.id, name: block.name, text };
      return [];
    }
    this.hadOutput = true;
    return [{ type: 'tool-call', id: block.id, name: block.name, arguments: args }];
  }

  /**
   * Once the stop reason is known (or the message ends): a held tool block is dropped when the
   * token limit cut the reply (the finish says `'length'`), else it is a ProtocolError.
   */
  private settleCutTool(): void {
    const cut = this.cutTool;
    if (cut === undefined) return;
    this.cutTool = undefined;
    if (this.stopReason === undefined || mapStopReason(this.stopReason) !== 'length') throw this.badTool(cut);
  }

  private badTool(cut: CutTool): ProtocolError {
    return badToolArguments(this.provider, cut, this.hadOutput);
  }

  private text(text: string | null | undefined): ChatEvent[] {
    if (!text) return [];
    this.hadOutput = true;
    return [{ type: 'text-delta', text }];
  }

  private parse<T>(schema: WireShape<T>, data: unknown): T {
    return parseWire(schema, data, this.provider, 'Messages stream event', this.hadOutput);
  }

  private error(message: string): ProtocolError {
    return new ProtocolError(message, { provider: this.provider, partialOutput: this.hadOutput });
  }
}
