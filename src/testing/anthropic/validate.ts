function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The content blocks of a message (a string content is one text block). */
function blocksOf(content: unknown): Array<Record<string, unknown>> | undefined {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return undefined;
  return content.every(isObject) ? (content as Array<Record<string, unknown>>) : undefined;
}

/**
 * Checks a `POST /v1/messages` body the way the API does, for the rules voxroute's adapter and
 * the official client must follow (PROTOCOLS.md 6b). Returns the first problem, as the API's
 * `invalid_request_error` message would name it, or undefined when the body is fine:
 * - `model` a non-empty string; `max_tokens` a positive integer (required);
 * - `messages` a non-empty array whose roles are `user` or `assistant` only (the system prompt is
 *   the top-level `system`), each with a string or an array of content blocks;
 * - every `tool_result` block answers a `tool_use` block of the assistant message just before it;
 * - every `tool_use` block of an assistant message that has a next message is answered by a
 *   `tool_result` in that next message;
 * - `tools`, when present, an array of `{name, input_schema}` objects.
 */
export function validateMessagesRequest(body: unknown): string | undefined {
  if (!isObject(body)) return 'the request body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return 'max_tokens: Field required (a positive integer)';
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  let previousToolUses: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (!isObject(message)) return `messages.${i}: must be an object`;
    if (message.role !== 'user' && message.role !== 'assistant') {
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    }
    const blocks = blocksOf(message.content);
    if (blocks === undefined) return `messages.${i}.content: must be a string or an array of content blocks`;
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    for (const id of results) {
      if (typeof id !== 'string' || !previousToolUses.includes(id)) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
    const missing = previousToolUses.filter((id) => !results.includes(id));
    if (missing.length > 0) {
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}`;
    }
    previousToolUses =
      message.role === 'assistant'
        ? blocks.filter((b) => b.type === 'tool_use' && typeof b.id === 'string').map((b) => b.id as string)
        : [];
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return 'tools: must be an array';
    for (const [i, tool] of body.tools.entries()) {
      if (!isObject(tool) || typeof tool.name !== 'string' || !isObject(tool.input_schema)) {
        return `tools.${i}: must be an object with a name and an input_schema`;
      }
    }
  }
  return undefined;
}
