import type { MockErrorEvent } from '../mock-script.js';
import { type MockToolArguments, toolArgumentPieces } from '../reply-checks.js';
import type { BodyPlan } from '../scripted-body.js';
import { sseDone, sseFrame } from '../sse.js';
import type { OpenAiDialect } from './dialect.js';
import { errorEventFrames } from './dialect.js';
import { wordPieces } from './text-pieces.js';

/**
 * A tool call the mock's chat reply makes; `arguments` is an object (sent as its JSON text), the
 * JSON text, or the exact argument deltas (an array), as the Anthropic mock's `input`.
 *
 * @example
 * ```ts
 * const call: MockToolCall = { id: 'call_1', name: 'book', arguments: ['{"table":', '4}'] };
 * ```
 */
export interface MockToolCall {
  /** Default: `call_<n>` with n the tool call's index. */
  id?: string;
  /** Name of the tool called, sent as `function.name`. */
  name: string;
  /**
   * The arguments: an object or its JSON text (streamed in pieces of 10 characters), or the
   * exact `function.arguments` deltas (an array).
   */
  arguments: MockToolArguments;
}

/**
 * Token counts the mock reports (OpenAI `usage` names).
 *
 * @example
 * ```ts
 * const usage: MockChatUsage = { prompt_tokens: 12, completion_tokens: 5 }; // total_tokens: 17
 * ```
 */
export interface MockChatUsage {
  /** Reported as `usage.prompt_tokens`. */
  prompt_tokens: number;
  /** Reported as `usage.completion_tokens`. */
  completion_tokens: number;
  /** Default: prompt_tokens + completion_tokens. */
  total_tokens?: number;
}

/** The `finish_reason` values of OpenAI's Chat Completions API (a mock reply's `finishReason`). */
export const OPENAI_FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter'] as const;

/**
 * What the mock's chat model answers: a string (streamed one word per delta), or:
 * - `text`: the reply, one word per delta; `deltas`: the exact content deltas instead;
 * - `toolCalls`: tool calls, streamed after the content as OpenAI tool-call deltas (a first
 *   delta with id, type and name, then argument pieces of 10 characters or as given);
 * - `finishReason`: default `'tool_calls'` when there are tool calls, else `'stop'`;
 * - `usage`: default prompt tokens = ceil(characters of all message contents / 4), completion
 *   tokens = number of deltas.
 *
 * @example
 * ```ts
 * const reply: ChatReply = { toolCalls: [{ name: 'book', arguments: '{"table":4}' }] };
 * ```
 */
export type ChatReply =
  | string
  | {
      /** The reply's text, streamed one word per content delta. Omitted (and no `deltas`): no text. */
      text?: string;
      /** The exact content deltas, in order; replaces `text`. */
      deltas?: string[];
      /** Tool calls streamed after the content as tool-call deltas, in order. Default: none. */
      toolCalls?: MockToolCall[];
      /** The `finish_reason`. Default: `'tool_calls'` when there are tool calls, else `'stop'`. */
      finishReason?: (typeof OPENAI_FINISH_REASONS)[number];
      /**
       * Token counts reported in the last chunk. Default: prompt tokens = ceil(characters of all
       * message contents / 4), completion tokens = the number of deltas.
       */
      usage?: MockChatUsage;
    };

/**
 * Default reply of the mock's chat model: `'This is a mock reply.'`, streamed as five deltas.
 *
 * @example
 * ```ts
 * expect(deltas.join('')).toBe(DEFAULT_CHAT_REPLY);
 * ```
 */
export const DEFAULT_CHAT_REPLY = 'This is a mock reply.';

/** Fixed `created` time (Unix seconds) of every mock completion, so bodies are deterministic. */
export const MOCK_CREATED = 1_700_000_000;

interface ChatInput {
  dialect: OpenAiDialect;
  call: number;
  reply: ChatReply | undefined;
  errorEvent: MockErrorEvent | undefined;
}

/** A 400-type outcome: the request itself was wrong. */
export interface RequestProblem {
  status: number;
  message: string;
}

function promptTokens(messages: unknown[]): number {
  let characters = 0;
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    characters += typeof content === 'string' ? content.length : JSON.stringify(content ?? '').length;
  }
  return Math.max(1, Math.ceil(characters / 4));
}

/**
 * OpenAI's 400 for `stream_options` on a completion that is not streamed (the official client's
 * `ChatCompletionStreamOptions`: "Only set this when you set `stream: true`"; the body as quoted
 * in BerriAI/litellm#5803).
 */
const STREAM_OPTIONS_REFUSAL = {
  status: 400,
  body: {
    error: {
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      type: 'invalid_request_error',
      param: 'stream_options',
      code: null,
    },
  },
};

/**
 * vLLM's 400 for a non-empty `stream_options` on a completion that is not streamed (its request
 * models' `validate_stream_options`, which names the parameter); vLLM's error shape, integer
 * `code`. An empty `stream_options: {}` passes there, as in vLLM's check.
 */
const VLLM_STREAM_OPTIONS_REFUSAL = {
  status: 400,
  body: {
    error: {
      message: 'Stream options can only be defined when `stream=True`.',
      type: 'BadRequestError',
      param: 'stream_options',
      code: 400,
    },
  },
};

/** True for a value Python reads as true (vLLM's `if data.get("stream_options")`): a non-empty object. */
const nonEmptyObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.keys(value).length > 0;

/**
 * The pieces of `reply` after the text of `last` when `last` is an assistant message whose text
 * starts the reply (what a model continuing that message would still say), else `reply` whole.
 */
function afterPrefix(reply: readonly string[], last: unknown): string[] {
  const message = (typeof last === 'object' && last !== null ? last : {}) as {
    role?: unknown;
    content?: unknown;
  };
  const prefix = message.role === 'assistant' && typeof message.content === 'string' ? message.content : '';
  const text = reply.join('');
  if (prefix === '' || !text.startsWith(prefix)) return [...reply];
  return wordPieces(text.slice(prefix.length));
}

/**
 * The plan of a `POST /chat/completions` answer (PROTOCOLS 2.2): with `stream: true`, SSE
 * chunks (role chunk, content deltas, tool-call deltas, a finish chunk with `delta: {}`, a
 * usage chunk with `choices: []` when asked, `data: [DONE]`); otherwise one JSON
 * `chat.completion`. Returns a problem for a body without `messages`, and OpenAI's own 400
 * body for `stream_options` without `stream: true` in the openai dialect (vLLM's, for a
 * non-empty one, in the vllm dialect). In the vllm dialect `stream_options.include_usage`
 * defaults to true once `stream_options` is present, and `continuous_usage_stats: true` puts
 * the usage so far (`completion_tokens` counting the deltas sent) on every chunk instead of
 * `usage: null`. Dialect `'vllm'` honours
 * `continue_final_message: true` (both it and `add_generation_prompt: true` is a 400, as vLLM
 * answers): only the reply after the trailing assistant message's text is sent.
 */
export function chatPlan(
  body: unknown,
  input: ChatInput,
): BodyPlan | RequestProblem | { status: number; body: unknown } {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    return { status: 400, message: "'messages' must be a non-empty array" };
  }
  if (input.dialect === 'openai' && request.stream !== true && request.stream_options != null) {
    return STREAM_OPTIONS_REFUSAL;
  }
  if (input.dialect === 'vllm' && request.stream !== true && nonEmptyObject(request.stream_options)) {
    return VLLM_STREAM_OPTIONS_REFUSAL;
  }
  const model = typeof request.model === 'string' ? request.model : 'mock-model';
  const reply =
    typeof input.reply === 'string' ? { text: input.reply } : (input.reply ?? { text: DEFAULT_CHAT_REPLY });
  const full = reply.deltas ?? wordPieces(reply.text ?? '');
  // vLLM continues a trailing assistant message when asked (continue_final_message): it streams
  // only the tokens after that prefix; it refuses the flag together with add_generation_prompt.
  const continued = input.dialect === 'vllm' && request.continue_final_message === true;
  if (continued && request.add_generation_prompt === true) {
    return {
      status: 400,
      message: 'Cannot set both `continue_final_message` and `add_generation_prompt` to True.',
    };
  }
  const deltas = continued ? afterPrefix(full, messages.at(-1)) : full;
  const tools = (reply.toolCalls ?? []).map((tool, index) => ({
    id: tool.id ?? `call_${index}`,
    name: tool.name,
    pieces: toolArgumentPieces(tool.arguments),
  }));
  const finishReason = reply.finishReason ?? (tools.length > 0 ? 'tool_calls' : 'stop');
  const completionTokens = deltas.length + tools.reduce((n, tool) => n + tool.pieces.length, 0);
  const prompt = reply.usage?.prompt_tokens ?? promptTokens(messages);
  const completion = reply.usage?.completion_tokens ?? completionTokens;
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: reply.usage?.total_tokens ?? prompt + completion,
  };
  const id = `chatcmpl-mock-${input.call}`;

  if (request.stream !== true) {
    const content = deltas.join('');
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: content === '' && tools.length > 0 ? null : content,
      refusal: null,
    };
    if (tools.length > 0) {
      message.tool_calls = tools.map((tool) => ({
        id: tool.id,
        type: 'function',
        function: { name: tool.name, arguments: tool.pieces.join('') },
      }));
    }
    const completionBody = {
      id,
      object: 'chat.completion',
      created: MOCK_CREATED,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
    };
    return {
      headers: { 'content-type': 'application/json' },
      chunks: [new TextEncoder().encode(JSON.stringify(completionBody))],
    };
  }

  const streamOptions = request.stream_options as
    | { include_usage?: unknown; continuous_usage_stats?: unknown }
    | undefined;
  const includeUsage =
    streamOptions?.include_usage === true ||
    (input.dialect === 'vllm' &&
      typeof streamOptions === 'object' &&
      streamOptions !== null &&
      streamOptions.include_usage !== false);
  // vLLM's continuous_usage_stats: every chunk carries the usage so far (PROTOCOLS 6.1).
  const continuous =
    input.dialect === 'vllm' && includeUsage && streamOptions?.continuous_usage_stats === true;
  let generated = 0;
  const usageSoFar = () => ({
    prompt_tokens: prompt,
    completion_tokens: generated,
    total_tokens: prompt + generated,
  });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sseFrame({
      id,
      object: 'chat.completion.chunk',
      created: MOCK_CREATED,
      model,
      system_fingerprint: null,
      choices,
      ...(includeUsage ? { usage: continuous ? usageSoFar() : null } : {}),
      ...extra,
    });
  const choice = (delta: unknown, finish: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });

  const chunks = [chunk([choice({ role: 'assistant', content: '' })])];
  for (const text of deltas) {
    generated++;
    chunks.push(chunk([choice({ content: text })]));
  }
  tools.forEach((tool, index) => {
    chunks.push(
      chunk([
        choice({
          tool_calls: [
            { index, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } },
          ],
        }),
      ]),
    );
    for (const piece of tool.pieces) {
      generated++;
      chunks.push(chunk([choice({ tool_calls: [{ index, function: { arguments: piece } }] })]));
    }
  });
  // The finish chunk reports the whole completion (a scripted `usage` included).
  generated = completion;
  const closing = [chunk([choice({}, finishReason)])];
  if (includeUsage) closing.push(chunk([], { usage }));
  closing.push(sseDone());
  return {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    chunks,
    closing,
    errorFrames: errorEventFrames(input.dialect, input.errorEvent),
  };
}
