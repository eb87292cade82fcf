import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, sendJson } from './api-error.js';
import type { RouteContext } from './context.js';
import { readJsonBody } from './request-body.js';
import { countWords, ECHO_MODEL_ID, replyTo, streamPieces } from './responder.js';
import { openSse, writeSse } from './sse.js';

/** A chat request, as far as this server reads it. */
interface ChatParams {
  model: string;
  lastUserText: string;
  promptWords: number;
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | undefined;
}

/** The text of a message `content`: a string, or the `text` parts of an array of content parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '',
    )
    .join('');
}

function parseChat(body: Record<string, unknown>): ChatParams {
  const { model, messages, stream, stream_options: streamOptions } = body;
  if (typeof model !== 'string' || model === '') {
    throw new ApiError(400, "Missing required parameter: 'model'.", {
      param: 'model',
      code: 'missing_required_parameter',
    });
  }
  if (model !== ECHO_MODEL_ID) {
    throw new ApiError(
      404,
      `The model '${model.slice(0, 100)}' does not exist. This server has '${ECHO_MODEL_ID}'.`,
      {
        param: 'model',
        code: 'model_not_found',
      },
    );
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new ApiError(400, "'messages' must be a non-empty array.", {
      param: 'messages',
      code: 'invalid_value',
    });
  }
  let lastUserText = '';
  let promptWords = 0;
  for (const message of messages as unknown[]) {
    if (
      typeof message !== 'object' ||
      message === null ||
      typeof (message as { role?: unknown }).role !== 'string'
    ) {
      throw new ApiError(400, "Each message needs a string 'role'.", {
        param: 'messages',
        code: 'invalid_value',
      });
    }
    const text = contentText((message as { content?: unknown }).content);
    promptWords += countWords(text);
    if ((message as { role: string }).role === 'user') lastUserText = text;
  }
  const maxRaw = body.max_completion_tokens ?? body.max_tokens;
  if (maxRaw !== undefined && maxRaw !== null && !(Number.isInteger(maxRaw) && (maxRaw as number) > 0)) {
    throw new ApiError(400, "'max_tokens' must be a positive integer.", {
      param: 'max_tokens',
      code: 'invalid_value',
    });
  }
  const includeUsage =
    typeof streamOptions === 'object' &&
    streamOptions !== null &&
    (streamOptions as { include_usage?: unknown }).include_usage === true;
  return {
    model,
    lastUserText,
    promptWords,
    stream: stream === true,
    includeUsage,
    maxTokens: typeof maxRaw === 'number' ? maxRaw : undefined,
  };
}

/**
 * `POST /v1/chat/completions` of the `voxroute-echo` model: the reply of `replyTo()` to the
 * last user message, one word per token. With `stream: true` it sends OpenAI chat chunks
 * (PROTOCOLS.md 2.2): a first chunk `{"role":"assistant","content":""}`, one chunk per word
 * `settings.chatWordGapMs` apart, a last chunk with `delta: {}` and `finish_reason` (`stop`, or
 * `length` when `max_tokens` cut it), then with `stream_options.include_usage` a usage chunk
 * with `choices: []` (all other chunks then carry `"usage": null`), then `data: [DONE]`.
 * Without `stream`, one `chat.completion` JSON. Usage counts words, not real tokens.
 * Errors: 400 bad body, 404 `model_not_found` for any other model.
 */
export async function handleChat(ctx: RouteContext): Promise<void> {
  const params = parseChat(await readJsonBody(ctx.req));
  const allPieces = streamPieces(replyTo(params.lastUserText));
  const pieces = params.maxTokens === undefined ? allPieces : allPieces.slice(0, params.maxTokens);
  const finishReason = pieces.length < allPieces.length ? 'length' : 'stop';
  const id = ctx.nextId('chatcmpl-voxroute');
  const created = Math.floor(ctx.settings.now() / 1000);
  const usage = {
    prompt_tokens: params.promptWords,
    completion_tokens: pieces.length,
    total_tokens: params.promptWords + pieces.length,
  };

  if (!params.stream) {
    sendJson(ctx.res, {
      id,
      object: 'chat.completion',
      created,
      model: params.model,
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: pieces.join(''), refusal: null },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage,
    });
    return;
  }

  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: params.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(params.includeUsage ? { usage: null } : {}),
  });

  openSse(ctx.res);
  await writeSse(ctx.res, chunk({ role: 'assistant', content: '' }, null));
  for (const piece of pieces) {
    if (ctx.settings.chatWordGapMs > 0) {
      try {
        await delay(ctx.settings.chatWordGapMs, undefined, { signal: ctx.signal });
      } catch {
        return; // the client went away
      }
    }
    if (ctx.signal.aborted) return;
    await writeSse(ctx.res, chunk({ content: piece }, null));
  }
  await writeSse(ctx.res, chunk({}, finishReason));
  if (params.includeUsage) {
    await writeSse(ctx.res, {
      id,
      object: 'chat.completion.chunk',
      created,
      model: params.model,
      system_fingerprint: null,
      choices: [],
      usage,
    });
  }
  await writeSse(ctx.res, '[DONE]');
  ctx.res.end();
}
