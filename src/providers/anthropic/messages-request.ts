import { VoxrouteError } from '../../errors/index.js';
import type { ChatMessage, ChatTool } from '../../types/chat.js';
import type { ProviderChatRequest } from '../types.js';
import type {
  WireContentBlock,
  WireMessage,
  WireMessagesRequest,
  WireTextBlock,
  WireTool,
  WireToolUseBlock,
} from './api-types.js';

/**
 * The `POST /v1/messages` body for `request` (PROTOCOLS.md 6b):
 * - `model`, `max_tokens` (`request.maxTokens`, else `defaultMaxTokens`: the API requires it),
 *   `stream: true`, and `temperature` and `tools` when set (`tools` as
 *   `{name, description?, input_schema}`);
 * - `system`: every system message, wherever it stands, moved to the top-level field (the API
 *   has no system role in `messages`): one message as a string, several as one text block each;
 * - `messages`: user and assistant turns (see {@link toWireMessages}).
 * Throws VoxrouteError (a usage error: no provider could take it) when a tool call's
 * `arguments` is not the JSON text of an object (the API's `input` must be one).
 */
export function messagesRequestBody(
  request: ProviderChatRequest,
  defaultMaxTokens: number,
): WireMessagesRequest {
  return messagesRequest(request, defaultMaxTokens).body;
}

/**
 * {@link messagesRequestBody}, and `trimmed`: the white space cut from the end of a trailing
 * assistant message (the prefill; see {@link trimPrefill}), `''` when none was, which the
 * model's continuation is expected to begin with (see withoutRepeatedSeam).
 */
export function messagesRequest(
  request: ProviderChatRequest,
  defaultMaxTokens: number,
): { body: WireMessagesRequest; trimmed: string } {
  const system = request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const prefill = trimPrefill(toWireMessages(request.messages));
  const body: WireMessagesRequest = {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    messages: prefill.messages,
    stream: true,
  };
  if (system.length === 1) body.system = system[0]!;
  else if (system.length > 1) body.system = system.map((text): WireTextBlock => ({ type: 'text', text }));
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(toWireTool);
  return { body, trimmed: prefill.trimmed };
}

/**
 * The conversation as Anthropic messages, system messages left out:
 * - a user message keeps its text; an assistant message without tool calls too;
 * - an assistant message with tool calls becomes a text block (when its text is not empty) and
 *   one `tool_use` block per call (`input` = the parsed `arguments`);
 * - a tool result becomes a `tool_result` block (`tool_use_id`, `content`) in a user message;
 * - consecutive messages of the same role are merged into one message of content blocks
 *   (so the results of parallel tool calls, and a user text after them, share one user turn,
 *   results first, as the API asks).
 */
export function toWireMessages(messages: ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const wire = toWireMessage(message);
    const last = out[out.length - 1];
    if (last && last.role === wire.role) {
      last.content = [...blocksOf(last.content), ...blocksOf(wire.content)];
    } else {
      out.push(wire);
    }
  }
  return out;
}

function toWireMessage(message: Exclude<ChatMessage, { role: 'system' }>): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }],
      };
    case 'assistant': {
      if (!message.toolCalls || message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      const blocks: WireContentBlock[] =
        message.content === '' ? [] : [{ type: 'text', text: message.content }];
      for (const call of message.toolCalls) {
        const block: WireToolUseBlock = {
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: toolInput(call),
        };
        blocks.push(block);
      }
      return { role: 'assistant', content: blocks };
    }
  }
}

function blocksOf(content: string | WireContentBlock[]): WireContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function toolInput(call: { id: string; name: string; arguments: string }): Record<string, unknown> {
  let value: unknown;
  try {
    value = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (cause) {
    throw new VoxrouteError(`Tool call '${call.id}' (${call.name}) has arguments that are not JSON`, {
      cause,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new VoxrouteError(`Tool call '${call.id}' (${call.name}) has arguments that are not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** A tool in Anthropic's shape: `{name, description?, input_schema}`. */
export function toWireTool(tool: ChatTool): WireTool {
  const wire: WireTool = { name: tool.name, input_schema: tool.parameters };
  if (tool.description !== undefined) wire.description = tool.description;
  return wire;
}

/**
 * A trailing assistant message is a prefill the model continues; the Messages API refuses one
 * that ends in white space (400), so it is trimmed at the end (the model's continuation
 * supplies the space): its text, or its last block when that is a text block (several assistant
 * messages in a row were merged into blocks), each text block left empty dropped (the API
 * refuses an empty text block). `trimmed`: the white space cut, in order.
 */
function trimPrefill(messages: WireMessagesRequest['messages']): {
  messages: WireMessagesRequest['messages'];
  trimmed: string;
} {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return { messages, trimmed: '' };
  if (typeof last.content === 'string') {
    const content = last.content.trimEnd();
    return {
      messages: [...messages.slice(0, -1), { ...last, content }],
      trimmed: last.content.slice(content.length),
    };
  }
  if (last.content.at(-1)?.type !== 'text') return { messages, trimmed: '' };
  const blocks = [...last.content];
  let trimmed = '';
  for (let block = blocks.at(-1); block?.type === 'text'; block = blocks.at(-1)) {
    const text = block.text.trimEnd();
    trimmed = block.text.slice(text.length) + trimmed;
    if (text !== '') {
      blocks[blocks.length - 1] = { ...block, text };
      break;
    }
    blocks.pop();
  }
  return {
    messages: [...messages.slice(0, -1), { ...last, content: blocks.length > 0 ? blocks : '' }],
    trimmed,
  };
}
