import {
  type ShapeOf,
  wireArray,
  wireCount,
  wireEither,
  wireNullish,
  wireObject,
  wireRecord,
  wireString,
} from '../wire-shape.js';

/*
 * Wire shapes of the OpenAI API and of the servers that copy it, as more than one provider
 * reads them: the OpenAI adapters (kinds `openai`, `openai-compatible`) and the SageMaker
 * codecs that carry the same payloads (`openai-chat`, OpenAI-style transcription events).
 * Every object is loose: unknown fields (vLLM's `reasoning_content`, `obfuscation`,
 * `logprobs`, ...) are kept and ignored, and fields we do not read are not declared. Sources:
 * PROTOCOLS.md §2 (OpenAI: ONODE, OAS) and §6 (vLLM, speaches). The shapes only the OpenAI
 * adapters read (speech, the JSON transcription, the error body) are in
 * src/providers/openai/api-types.ts.
 *
 * The frames of a call (`xShape`) are wire shapes (src/providers/shared/wire-shape.ts): checked
 * without zod when they fit, so the first call does not load zod; `parseWire(xShape, ...)`.
 */

const str = wireNullish(wireString);
const count = wireNullish(wireCount);

/**
 * One tool-call fragment of a chat delta; `index` groups the fragments of one call. Some
 * OpenAI-compatible servers send a complete call in one chunk without `index` (then the
 * fragment's position in the array stands for it) or with `arguments` as a JSON object
 * rather than its text (then it is serialised): both are accepted.
 */
export const toolCallDeltaShape = wireObject({
  index: count,
  id: str,
  type: str,
  function: wireNullish(
    wireObject({ name: str, arguments: wireNullish(wireEither(wireString, wireRecord)) }),
  ),
});

/** Token counts of chat (`CompletionUsage`; vLLM `UsageInfo`). */
export const chatUsageShape = wireObject({ prompt_tokens: count, completion_tokens: count });

/** One choice of a chat completion chunk. */
export const chatChoiceShape = wireObject({
  index: count,
  delta: wireNullish(
    wireObject({ content: str, refusal: str, tool_calls: wireNullish(wireArray(toolCallDeltaShape)) }),
  ),
  finish_reason: str,
});

/**
 * A `chat.completion.chunk` (ONODE `ChatCompletionChunk`): `choices` is empty in the usage
 * chunk that `stream_options.include_usage` adds before `[DONE]`; `usage` is null elsewhere
 * (vLLM with `continuous_usage_stats` fills it on every chunk).
 */
export const chatChunkShape = wireObject({
  choices: wireNullish(wireArray(chatChoiceShape)),
  usage: wireNullish(chatUsageShape),
});

/** A parsed chat completion chunk. */
export type ChatChunk = ShapeOf<typeof chatChunkShape>;

/** A wire tool call as sent back to the server in an assistant message. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of the Chat Completions request (`messages[]`). */
export type WireChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

/** A tool of the Chat Completions request (`tools[]`). */
export interface WireChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** The Chat Completions request body voxroute sends. */
export interface WireChatRequest {
  model: string;
  messages: WireChatMessage[];
  stream: true;
  stream_options: { include_usage: true };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  tools?: WireChatTool[];
  /** vLLM: continue the trailing assistant message instead of starting a new one (PROTOCOLS 6.1). */
  continue_final_message?: true;
  /** vLLM: with `continue_final_message`, no new assistant prompt is added. */
  add_generation_prompt?: false;
}

/**
 * Streamed transcription events, in the three dialects (PROTOCOLS.md §2.4, §6.1, §6.3):
 * OpenAI and speaches send `{type:'transcript.text.delta', delta}` and `{type:'transcript.text.done', text}`;
 * vLLM sends chat-like `{object:'transcription.chunk', choices:[{delta:{content}, finish_reason}]}`.
 */
export const transcriptionEventShape = wireObject({
  type: str,
  object: str,
  delta: str,
  text: str,
  choices: wireNullish(
    wireArray(wireObject({ delta: wireNullish(wireObject({ content: str })), finish_reason: str })),
  ),
});

/** A parsed streamed transcription event. */
export type TranscriptionEvent = ShapeOf<typeof transcriptionEventShape>;
