/**
 * Whether an OpenAI(-compatible) chat provider continues a trailing assistant message as the
 * same reply (`ChatProvider.continuesAssistantMessage`): OpenAI's own API answers it with a new
 * reply; a compatible server continues it only when the config declares that it honours vLLM's
 * `continue_final_message` (`chat.continueFinalMessage: true`). Known without loading the
 * adapter's code: the router reads it when it plans a call.
 */
export function openAiContinuesAssistantMessage(
  kind: 'openai' | 'openai-compatible',
  continueFinalMessage: boolean | undefined,
): boolean {
  return kind === 'openai-compatible' && continueFinalMessage === true;
}
