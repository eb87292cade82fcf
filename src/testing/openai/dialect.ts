import type { MockErrorEvent } from '../mock-script.js';
import { sseDone, sseFrame } from '../sse.js';

/**
 * Which server the OpenAI-compatible mock imitates (PROTOCOLS sections 2 and 6):
 * - `'openai'`: OpenAI itself; errors `{"error":{message,type,param,code}}` with a string code;
 * - `'vllm'`: vLLM; the same error shape with an integer `code` (the HTTP status), an in-stream
 *   error followed by `data: [DONE]`, chat-like transcription chunks, usage on by default once
 *   `stream_options` is present, `continue_final_message` honoured (only the reply after the
 *   trailing assistant message's text is streamed);
 * - `'kokoro'`: Kokoro-FastAPI; FastAPI errors `{"detail":{error,message,type}}`, `audio/pcm`,
 *   no SSE speech;
 * - `'speaches'`: speaches; FastAPI errors `{"detail":"..."}`, per-segment transcription deltas,
 *   `token_usage` in `speech.audio.done`, the `sample_rate` speech extension.
 *
 * @example
 * ```ts
 * const vllm = createOpenAiCompatibleMock({ dialect: 'vllm' });
 * ```
 */
export type OpenAiDialect = 'openai' | 'vllm' | 'kokoro' | 'speaches';

const OPENAI_CODES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found',
  408: 'timeout',
  409: 'conflict',
  422: 'unprocessable_entity',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const VLLM_TYPES: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  404: 'NotFoundError',
  429: 'TooManyRequestsError',
  503: 'ServiceUnavailableError',
};

function openAiType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * The error body `dialect` sends with `status`:
 * - openai: `{"error":{"message","type","param":null,"code"}}` (code e.g. `'rate_limit_exceeded'`, `'invalid_api_key'`);
 * - vllm: `{"error":{"message","type","param":null,"code":status}}`;
 * - kokoro: `{"detail":{"error","message","type"}}`;
 * - speaches: `{"detail":"message"}`.
 */
export function errorBody(dialect: OpenAiDialect, status: number, message: string): unknown {
  switch (dialect) {
    case 'openai':
      return {
        error: { message, type: openAiType(status), param: null, code: OPENAI_CODES[status] ?? null },
      };
    case 'vllm':
      return {
        error: {
          message,
          type: VLLM_TYPES[status] ?? (status >= 500 ? 'InternalServerError' : 'BadRequestError'),
          param: null,
          code: status,
        },
      };
    case 'kokoro':
      return {
        detail: {
          error: status >= 500 ? 'processing_error' : 'validation_error',
          message,
          type: status >= 500 ? 'server_error' : 'invalid_request_error',
        },
      };
    case 'speaches':
      return { detail: message };
  }
}

/**
 * The frames of an error inside a 200 SSE stream: `data: {"error":{...}}`, then `data: [DONE]`
 * for vLLM (PROTOCOLS 6.1). The SDKs turn such a frame into an API error (PROTOCOLS 2.1).
 */
export function errorEventFrames(dialect: OpenAiDialect, event: MockErrorEvent = {}): Uint8Array[] {
  const error = {
    message: event.message ?? 'mock error event',
    type: event.type ?? 'server_error',
    param: null,
    code: event.code ?? (dialect === 'vllm' ? 500 : 'server_error'),
  };
  const frames = [sseFrame({ error })];
  if (dialect === 'vllm') frames.push(sseDone());
  return frames;
}
