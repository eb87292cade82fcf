/**
 * What the JSON text `text` holds, for the tool-call `arguments` rule (an OpenAI function's
 * `arguments` and an Anthropic tool's `input` are one JSON object): `'object'` for the JSON of
 * one object, `'empty'` for empty or white-space text (a tool without parameters, taken as
 * `{}`), `'not-json'` for text that does not parse (JSON cut short, malformed, two values), or
 * the JSON type of another value (`'array'`, `'string'`, `'number'`, `'boolean'`, `'null'`).
 * The one rule of the chat adapters (a model's tool call) and of request validation (the
 * caller's history).
 */
export function jsonTextKind(
  text: string,
): 'object' | 'empty' | 'not-json' | 'array' | 'string' | 'number' | 'boolean' | 'null' {
  if (text.trim() === '') return 'empty';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not-json';
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'object' | 'string' | 'number' | 'boolean';
}
