import { argTypeError, checkObject, checkString } from '../../../internal/arg-checks.js';
import { nameOrShape } from '../../../internal/value-shape.js';
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
 * @throws TypeError naming the argument when `messages` is not an array, or naming the
 *   message (`messages[2]`) when one is not an object with a `role` of `system`, `user`,
 *   `assistant` or `tool` and a string `content`.
 */
export function renderPrompt(messages: readonly ChatMessage[]): string {
  if (!Array.isArray(messages))
    throw argTypeError('renderPrompt(messages): messages', 'an array of ChatMessage', messages);
  messages.forEach((message: unknown, i) => {
    checkObject(`renderPrompt: messages[${i}]`, 'a ChatMessage ({ role, content })', message);
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || !Object.hasOwn(ROLE, role))
      throw new TypeError(
        `renderPrompt: messages[${i}].role must be 'system', 'user', 'assistant' or 'tool', got ${nameOrShape(role)}`,
      );
    checkString(`renderPrompt: messages[${i}].content`, content);
  });
  const lines = (messages as readonly ChatMessage[]).map(
    (message) => `${ROLE[message.role]}: ${message.content}`,
  );
  lines.push('Assistant:');
  return lines.join('\n\n');
}

const ROLE: Record<ChatMessage['role'], string> = {
  system: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};
