import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';

/*
 * Wire shapes of the OpenAI API and of the servers that copy it, as zod schemas. Every object
 * is loose: unknown fields (vLLM's `reasoning_content`, `obfuscation`, `logprobs`, ...) are
 * kept and ignored, and fields we do not read are not declared. Sources: PROTOCOLS.md §2
 * (OpenAI: ONODE, OAS) and §6 (vLLM, Kokoro-FastAPI, speaches).
 *
 * Each schema is a function that builds it on its first call and returns the same object
 * afterwards (`lazy`, with zod from src/internal/zod.ts), so that importing voxroute does not
 * load zod; call it where the message is parsed, e.g. `parseWire(xSchema(), ...)`.
 */

/** Body of an OpenAI-style error: `{"error":{message,type,param,code}}`; vLLM's `code` is an integer. */
export const errorObjectSchema = lazySchema((z) =>
  z.looseObject({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
);

/** One tool-call fragment of a chat delta; `index` groups the fragments of one call. */
export const toolCallDeltaSchema = lazySchema((z) =>
  z.looseObject({
    index: z.number().int().nonnegative(),
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z
      .looseObject({
        name: z.string().nullish(),
        arguments: z.string().nullish(),
      })
      .nullish(),
  }),
);

/** Token counts of chat (`CompletionUsage`; vLLM `UsageInfo`). */
export const chatUsageSchema = lazySchema((z) =>
  z.looseObject({
    prompt_tokens: z.number().int().nonnegative().nullish(),
    completion_tokens: z.number().int().nonnegative().nullish(),
  }),
);

/** One choice of a chat completion chunk. */
export const chatChoiceSchema = lazySchema((z) =>
  z.looseObject({
    index: z.number().int().nonnegative().nullish(),
    delta: z
      .looseObject({
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(toolCallDeltaSchema()).nullish(),
      })
      .nullish(),
    finish_reason: z.string().nullish(),
  }),
);

/**
 * A `chat.completion.chunk` (ONODE `ChatCompletionChunk`): `choices` is empty in the usage
 * chunk that `stream_options.include_usage` adds before `[DONE]`; `usage` is null elsewhere
 * (vLLM with `continuous_usage_stats` fills it on every chunk).
 */
export const chatChunkSchema = lazySchema((z) =>
  z.looseObject({
    choices: z.array(chatChoiceSchema()).nullish(),
    usage: chatUsageSchema().nullish(),
  }),
);

/** A parsed chat completion chunk. */
export type ChatChunk = z.infer<ReturnType<typeof chatChunkSchema>>;

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

/** The `/audio/speech` request body voxroute sends (OAS `CreateSpeechRequest`). */
export interface WireSpeechRequest {
  model?: string;
  input: string;
  voice: string;
  response_format: 'pcm' | 'wav';
  speed?: number;
  stream_format?: 'sse';
}

/**
 * Events of `/audio/speech` with `stream_format: 'sse'`: `speech.audio.delta` carries base64
 * audio; `speech.audio.done` ends the stream with `usage` (OpenAI) or `token_usage` (speaches).
 */
export const speechEventSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string(),
    audio: z.string().nullish(),
  }),
);

/**
 * Streamed transcription events, in the three dialects (PROTOCOLS.md §2.4, §6.1, §6.3):
 * OpenAI and speaches send `{type:'transcript.text.delta', delta}` and `{type:'transcript.text.done', text}`;
 * vLLM sends chat-like `{object:'transcription.chunk', choices:[{delta:{content}, finish_reason}]}`.
 */
export const transcriptionEventSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string().nullish(),
    object: z.string().nullish(),
    delta: z.string().nullish(),
    text: z.string().nullish(),
    choices: z
      .array(
        z.looseObject({
          delta: z.looseObject({ content: z.string().nullish() }).nullish(),
          finish_reason: z.string().nullish(),
        }),
      )
      .nullish(),
  }),
);

/** A parsed streamed transcription event. */
export type TranscriptionEvent = z.infer<ReturnType<typeof transcriptionEventSchema>>;

/** The non-streamed transcription answer with `response_format: 'json'`: `{text}`. */
export const transcriptionJsonSchema = lazySchema((z) => z.looseObject({ text: z.string() }));
