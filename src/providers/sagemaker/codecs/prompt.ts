import type { ChatMessage } from '../../../types/chat.js';

/**
 * Renders a conversation as one prompt string for text-generation containers that take
 * `inputs` rather than messages (TGI `generate_stream`, LMI). The format is plain and
 * model-neutral: each message as `<Role>: <content>` separated by a blank line (`System`,
 * `User`, `Assistant`, `Tool`), ending with `Assistant:` for the model to continue. Models with
 * their own chat template should use the `'openai-chat'` codec (the container applies the
 * template) or a custom codec that calls its own renderer.
 *
 * @example
 * ```ts
 * renderPrompt([{ role: 'user', content: 'Hi' }]); // 'User: Hi\n\nAssistant:'
 * ```
 */
export function renderPrompt(messages: readonly ChatMessage[]): string {
  const lines = messages.map((message) => `${ROLE[message.role]}: ${message.content}`);
  lines.push('Assistant:');
  return lines.join('\n\n');
}

const ROLE: Record<ChatMessage['role'], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};
