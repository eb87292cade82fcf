import type { MockErrorEvent } from '../mock-script.js';
import { DEFAULT_CHAT_REPLY, type RequestProblem } from '../openai/chat.js';
import { wordPieces } from '../openai/text-pieces.js';
import { type MockToolArguments, toolArgumentPieces } from '../reply-checks.js';
import type { BodyPlan } from '../scripted-body.js';
import { validateMessagesRequest } from './validate.js';
import { errorEventFrames, sseEvent } from './wire.js';

/**
 * A tool call the Anthropic mock's reply makes (a `tool_use` block). `input` is the tool input:
 * an object (sent as JSON in pieces of 10 characters), its JSON text (same), or the exact
 * `partial_json` pieces.
 *
 * @example
 * ```ts
 * const call: MockToolUse = { id: 'toolu_1', name: 'book', input: { table: 4 } };
 * ```
 */
export interface MockToolUse {
  /** Default: `toolu_mock_<n>` with n the tool call's position. */
  id?: string;
  /** Name of the tool called, sent as the block's `name`. */
  name: string;
  /**
   * The tool input: an object or its JSON text (streamed as `input_json_delta` pieces of 10
   * characters), or the exact `partial_json` pieces (an array).
   */
  input: MockToolArguments;
}

/**
 * Token counts the Anthropic mock reports (`usage` names of the Messages API).
 *
 * @example
 * ```ts
 * const usage: AnthropicMockUsage = { input_tokens: 12, output_tokens: 5 };
 * ```
 */
export interface AnthropicMockUsage {
  /** Reported as `usage.input_tokens` in `message_start`. */
  input_tokens: number;
  /** Reported as `usage.output_tokens` in `message_delta`. */
  output_tokens: number;
}

/** The `stop_reason` values of Anthropic's Messages API (a mock reply's `stopReason`). */
export const ANTHROPIC_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'refusal',
  'pause_turn',
] as const;

/**
 * What the Anthropic mock's model answers: a string (one `text_delta` per word), or:
 * - `text`: the reply, one delta per word; `deltas`: the exact `text_delta`s instead;
 * - `toolUses`: `tool_use` blocks after the text block;
 * - `stopReason`: default `'tool_use'` when there are tool uses, else `'end_turn'`;
 * - `usage`: default input tokens = ceil(characters of the system prompt and messages / 4),
 *   output tokens = the number of deltas (text and tool input pieces).
 *
 * @example
 * ```ts
 * const reply: AnthropicReply = { text: 'Booking.', toolUses: [{ name: 'book', input: { table: 4 } }] };
 * ```
 */
export type AnthropicReply =
  | string
  | {
      /** The reply's text, streamed one `text_delta` per word. Omitted (and no `deltas`): no text. */
      text?: string;
      /** The exact `text_delta` texts, in order; replaces `text`. */
      deltas?: string[];
      /** `tool_use` blocks sent after the text block, in order. Default: none. */
      toolUses?: MockToolUse[];
      /** The `stop_reason`. Default: `'tool_use'` when there are tool uses, else `'end_turn'`. */
      stopReason?: (typeof ANTHROPIC_STOP_REASONS)[number];
      /**
       * Token counts reported. Default: input tokens = ceil(characters of the system prompt and
       * messages / 4), output tokens = the number of deltas (text and tool input pieces).
       */
      usage?: AnthropicMockUsage;
    };

interface MessagesInput {
  call: number;
  reply: AnthropicReply | undefined;
  errorEvent: MockErrorEvent | undefined;
}

function inputTokens(body: Record<string, unknown>): number {
  const characters = JSON.stringify(body.system ?? '').length + JSON.stringify(body.messages ?? []).length;
  return Math.max(1, Math.ceil(characters / 4));
}

/**
 * The plan of a `POST /v1/messages` answer (PROTOCOLS.md 6b). With `stream: true`, the named SSE
 * events exactly as the API sends them: `message_start` (usage with `input_tokens`), a text
 * block (`content_block_start`, `ping`, one `content_block_delta` `text_delta` per piece,
 * `content_block_stop`; left out when the reply has tool uses and no text), then per tool use
 * a `tool_use` block (`content_block_start` with `input: {}`, an empty `input_json_delta`, one
 * `input_json_delta` per piece, `content_block_stop`), and as the closing frames (left out by
 * `endWithoutDone`) `message_delta` (stop reason, `output_tokens`) and `message_stop`. Without
 * `stream`, one `message` JSON. Returns a problem (400) for an invalid request body.
 */
export function messagesPlan(body: unknown, input: MessagesInput): BodyPlan | RequestProblem {
  const problem = validateMessagesRequest(body);
  if (problem !== undefined) return { status: 400, message: problem };
  const request = body as Record<string, unknown>;
  const model = request.model as string;
  const reply =
    typeof input.reply === 'string' ? { text: input.reply } : (input.reply ?? { text: DEFAULT_CHAT_REPLY });
  const deltas = reply.deltas ?? wordPieces(reply.text ?? '');
  const tools = (reply.toolUses ?? []).map((tool, index) => ({
    id: tool.id ?? `toolu_mock_${index}`,
    name: tool.name,
    pieces: toolArgumentPieces(tool.input),
  }));
  const stopReason = reply.stopReason ?? (tools.length > 0 ? 'tool_use' : 'end_turn');
  const usage = reply.usage ?? {
    input_tokens: inputTokens(request),
    output_tokens: deltas.length + tools.reduce((n, tool) => n + tool.pieces.length, 0),
  };
  const id = `msg_mock_${input.call}`;
  const withText = deltas.length > 0 || tools.length === 0;

  if (request.stream !== true) {
    const content: unknown[] = withText ? [{ type: 'text', text: deltas.join(''), citations: null }] : [];
    for (const tool of tools) {
      content.push({
        type: 'tool_use',
        id: tool.id,
        name: tool.name,
        input: JSON.parse(tool.pieces.join('') || '{}'),
      });
    }
    const message = {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    };
    return {
      headers: { 'content-type': 'application/json', 'request-id': `req_mock_${input.call}` },
      chunks: [new TextEncoder().encode(JSON.stringify(message))],
    };
  }

  const chunks: Uint8Array[] = [
    sseEvent('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    }),
  ];
  const ping = sseEvent('ping', { type: 'ping' });
  let index = 0;
  /** One content block: start (then `ping` after the first), its deltas, stop. */
  const block = (contentBlock: unknown, blockDeltas: unknown[]) => {
    chunks.push(
      sseEvent('content_block_start', { type: 'content_block_start', index, content_block: contentBlock }),
    );
    if (index === 0) chunks.push(ping);
    for (const delta of blockDeltas) {
      chunks.push(sseEvent('content_block_delta', { type: 'content_block_delta', index, delta }));
    }
    chunks.push(sseEvent('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  };
  if (withText) {
    block(
      { type: 'text', text: '' },
      deltas.map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const tool of tools) {
    block(
      { type: 'tool_use', id: tool.id, name: tool.name, input: {} },
      ['', ...tool.pieces].map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  const closing = [
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  ];
  return {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': `req_mock_${input.call}`,
    },
    chunks,
    closing,
    errorFrames: errorEventFrames(input.errorEvent),
  };
}
