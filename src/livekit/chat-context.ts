import { llm } from '@livekit/agents';
import type { ChatMessage, ChatTool } from 'voxroute';

/**
 * A LiveKit chat context as voxroute chat messages: system and developer messages as
 * `system`, user and assistant text (image and audio content are not sent: voxroute chat is
 * text only), function calls as the assistant's tool calls, function outputs as `tool`
 * messages. Agent handoffs and config updates are LiveKit's bookkeeping and are left out.
 */
export function toChatMessages(chatCtx: llm.ChatContext): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of chatCtx.items) {
    if (item.type === 'message') {
      const content = item.textContent ?? '';
      if (item.role === 'system' || item.role === 'developer') messages.push({ role: 'system', content });
      else if (item.role === 'user') messages.push({ role: 'user', content });
      else messages.push({ role: 'assistant', content });
    } else if (item.type === 'function_call') {
      const call = { id: item.callId, name: item.name, arguments: item.args || '{}' };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', toolCallId: item.callId, content: item.output });
    }
  }
  return messages;
}

/** The function tools of a LiveKit tool context as voxroute tools (JSON Schema parameters). */
export function toChatTools(toolCtx: llm.ToolContext | undefined): ChatTool[] | undefined {
  if (!toolCtx) return undefined;
  const tools = Object.entries(toolCtx.functionTools).map(([name, tool]): ChatTool => {
    const parameters = tool.parameters
      ? (llm.toJsonSchema(tool.parameters, true, false) as Record<string, unknown>)
      : { type: 'object', properties: {} };
    return { name, ...(tool.description ? { description: tool.description } : {}), parameters };
  });
  return tools.length ? tools : undefined;
}
