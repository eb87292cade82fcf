/** A tool call requested by the model: `arguments` is the JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A tool call that a chat provider had started when its stream failed mid-reply
 * (`MidStreamError.toolCalls`): `id` and `name` as the provider sent them (`''` when
 * it had not sent one yet), `arguments` the JSON text received so far, which may be cut
 * anywhere (not valid JSON) when the stream failed inside the call.
 */
export interface PartialToolCall {
  /** The call's id, `''` when the provider had not sent it yet. */
  id: string;
  /** The tool's name, `''` when the provider had not sent it yet. */
  name: string;
  /** The JSON text of the arguments received so far (may be cut anywhere). */
  arguments: string;
}

/** One message of a conversation. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string };

/** A tool the model may call: `parameters` is a JSON Schema object. */
export interface ChatTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Token counts of a chat call, when the provider reports them. */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Why a chat completion ended. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

/**
 * An event of `router.chat()`: text deltas in order, complete tool calls (assembled from the
 * provider's deltas), and one `finish` last.
 */
export type ChatEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; arguments: string }
  | { type: 'finish'; finishReason: FinishReason; usage?: ChatUsage };
