import type { ChatMessage, ChatTool } from '../../../types/chat.js';
import type { ProviderChatRequest } from '../../types.js';
import type { WireChatMessage, WireChatRequest, WireChatTool } from './api-types.js';

/**
 * The Chat Completions body for `request` (PROTOCOLS.md §2.2): always `stream: true` and
 * `stream_options: {include_usage: true}` (so the usage chunk arrives before `[DONE]`).
 * The token limit goes in `max_completion_tokens` for kind `'openai'` (OpenAI deprecated
 * `max_tokens`, and its reasoning models reject it) and in `max_tokens` for
 * `'openai-compatible'` (the field every compatible server knows: vLLM, llama.cpp,
 * aggregators). Optional fields are left out when unset.
 */
export function chatRequestBody(
  request: ProviderChatRequest,
  kind: 'openai' | 'openai-compatible',
): WireChatRequest {
  const body: WireChatRequest = {
    model: request.model,
    messages: request.messages.map(toWireMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.maxTokens !== undefined) {
    if (kind === 'openai') body.max_completion_tokens = request.maxTokens;
    else body.max_tokens = request.maxTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.tools && request.tools.length > 0) body.tools = request.tools.map(toWireTool);
  // A trailing assistant message is a prefill to continue (the router's midStream 'continue').
  // Self-hosted vLLM continues it only when told to; OpenAI's own API has no such option.
  const last = request.messages.at(-1);
  if (kind === 'openai-compatible' && last?.role === 'assistant' && !last.toolCalls?.length) {
    body.continue_final_message = true;
    body.add_generation_prompt = false;
  }
  return body;
}

/**
 * One message in OpenAI's shape: an assistant message with tool calls gets `tool_calls`
 * (and `content: null` when it has no text, as OpenAI sends it); a tool result gets `tool_call_id`.
 */
export function toWireMessage(message: ChatMessage): WireChatMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
    case 'assistant': {
      if (!message.toolCalls || message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** A tool in OpenAI's shape: `{type:'function', function:{name, description?, parameters}}`. */
export function toWireTool(tool: ChatTool): WireChatTool {
  const fn: WireChatTool['function'] = { name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) fn.description = tool.description;
  return { type: 'function', function: fn };
}
