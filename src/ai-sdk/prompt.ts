import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { ChatMessage, ChatTool, ToolCall } from 'voxroute';
import { RequestError } from 'voxroute';

/** What a `router.chat()` call takes from the AI SDK's call options, and what it cannot use. */
export interface ChatInput {
  messages: ChatMessage[];
  tools: ChatTool[] | undefined;
  warnings: SharedV4Warning[];
}

/**
 * Turns the AI SDK's prompt (spec v4) into voxroute chat messages: system and text parts as
 * they are, assistant tool calls with their input as JSON text, each tool result as one `tool`
 * message. Reasoning parts of earlier assistant turns are dropped (voxroute sends text only).
 *
 * @throws RequestError for a file part (voxroute chat is text only), naming the part.
 */
export function toChatMessages(prompt: LanguageModelV4Prompt): ChatMessage[] {
  const messages: ChatMessage[] = [];
  prompt.forEach((message, i) => {
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const text = message.content.map((part, j) => {
          if (part.type === 'text') return part.text;
          throw new RequestError(
            `prompt[${i}].content[${j}]`,
            `a '${part.type}' part (${part.mediaType}) cannot be sent: voxroute chat takes text only`,
          );
        });
        messages.push({ role: 'user', content: text.join('') });
        break;
      }
      case 'assistant': {
        let content = '';
        const toolCalls: ToolCall[] = [];
        message.content.forEach((part, j) => {
          if (part.type === 'text') content += part.text;
          else if (part.type === 'tool-call') {
            toolCalls.push({
              id: part.toolCallId,
              name: part.toolName,
              arguments: JSON.stringify(part.input ?? {}),
            });
          } else if (part.type === 'tool-result') {
            // A provider-executed tool's result inside the assistant turn: voxroute executes no
            // tool itself, so such a result can only come from another provider; send it as text.
            content += toolResultText(part.output);
          } else if (part.type === 'file') {
            throw new RequestError(
              `prompt[${i}].content[${j}]`,
              `a 'file' part (${part.mediaType}) cannot be sent: voxroute chat takes text only`,
            );
          }
          // reasoning, reasoning-file and custom parts: not sent.
        });
        messages.push(
          toolCalls.length ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content },
        );
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type === 'tool-result') {
            messages.push({
              role: 'tool',
              toolCallId: part.toolCallId,
              content: toolResultText(part.output),
            });
          }
          // tool-approval-response parts are for the AI SDK's own loop, not for the model.
        }
        break;
    }
  });
  return messages;
}

/** A tool result as the text a chat model reads: text as is, JSON serialized. */
export function toolResultText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'Tool execution denied.';
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : '')).join('');
  }
}

/**
 * The chat input of one AI SDK call: messages, function tools (provider tools cannot run
 * through voxroute), and a warning for every option voxroute does not pass on.
 * `toolChoice: 'none'` sends no tools; `'required'` and a named tool are sent as `'auto'` with a warning.
 */
export function toChatInput(options: LanguageModelV4CallOptions): ChatInput {
  const warnings: SharedV4Warning[] = [];
  const unsupported = (feature: string, details?: string) =>
    warnings.push(details ? { type: 'unsupported', feature, details } : { type: 'unsupported', feature });
  for (const key of [
    'topP',
    'topK',
    'presencePenalty',
    'frequencyPenalty',
    'seed',
    'stopSequences',
  ] as const) {
    if (options[key] !== undefined) unsupported(key);
  }
  if (options.responseFormat?.type === 'json') {
    unsupported('responseFormat', 'voxroute chat has no JSON mode; the model answers in text');
  }
  let tools: ChatTool[] | undefined;
  if (options.tools?.length && options.toolChoice?.type !== 'none') {
    tools = [];
    for (const tool of options.tools) {
      if (tool.type === 'function') {
        tools.push({
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          parameters: tool.inputSchema as Record<string, unknown>,
        });
      } else {
        unsupported(`provider tool ${tool.id}`, 'voxroute routes function tools only');
      }
    }
    if (options.toolChoice?.type === 'required' || options.toolChoice?.type === 'tool') {
      unsupported('toolChoice', `'${options.toolChoice.type}' is sent as 'auto'`);
    }
    if (tools.length === 0) tools = undefined;
  }
  return { messages: toChatMessages(options.prompt), tools, warnings };
}
