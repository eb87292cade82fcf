import { ProtocolError } from '../../errors/index.js';
import { jsonTextKind } from '../../internal/json-object-text.js';

/**
 * The `arguments` of a finished tool call, from the JSON text its fragments joined to:
 * - the text itself, unchanged, when it is the JSON of one object (what the model produced);
 * - `'{}'` when it is empty or white space: a tool without parameters (some OpenAI-compatible
 *   servers send `arguments: ""`; Anthropic sends no `input_json_delta` text);
 * - undefined for anything else: JSON cut short (`{"city":`), malformed, or a value that is not
 *   an object. OpenAI's function `arguments` and Anthropic's tool `input` are both JSON objects
 *   (PROTOCOLS.md 2.2 and 6b; docs/decisions.md "Tool-call arguments are one JSON object").
 *
 * The adapters of OpenAI-compatible chat and Anthropic Messages both decide through here; a
 * call whose arguments are undefined is dropped when the reply was cut by the token limit, and
 * is otherwise {@link badToolArguments}.
 */
export function toolArgumentsText(text: string): string | undefined {
  const kind = jsonTextKind(text);
  return kind === 'empty' ? '{}' : kind === 'object' ? text : undefined;
}

/**
 * The ProtocolError (retryable, so the route falls back when nothing was yielded yet) of a
 * finished tool call whose arguments {@link toolArgumentsText} refuses. The message names the
 * call and the length of its arguments, never their content.
 *
 * @param provider The provider's name in the config.
 * @param call The call's id and name, and its joined arguments text.
 * @param partialOutput Whether the stream had yielded output before.
 */
export function badToolArguments(
  provider: string,
  call: { id: string; name: string; text: string },
  partialOutput: boolean,
): ProtocolError {
  return new ProtocolError(
    `Tool call '${call.name}' (${call.id}) ended with arguments that are not one JSON object (${call.text.length} characters: cut short or malformed)`,
    { provider, partialOutput },
  );
}
