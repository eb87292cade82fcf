import type { ChatEvent } from '../../types/chat.js';
import { assembledSse } from '../shared/assembled-sse.js';
import { eventStreamAnswer } from '../shared/event-stream-answer.js';
import { endpointUrl, type HttpEndpoint, postToEndpoint } from '../shared/http-endpoint.js';
import { chatChunkShape } from '../shared/openai-wire/api-types.js';
import { chatRequestBody } from '../shared/openai-wire/chat-request.js';
import { ChatStreamAssembler } from '../shared/openai-wire/chat-stream.js';
import { OpenedStream } from '../shared/opened-stream.js';
import { parseWire } from '../shared/parse-wire.js';
import type { AttemptContext, ChatProvider, ChatStreamReport, ProviderChatRequest } from '../types.js';
import { openAiContinuesAssistantMessage } from './chat-continues.js';
import { readOpenAiHttpError } from './http-errors.js';
import type { OpenAiChatOptions } from './options.js';

/**
 * Chat over `POST {baseUrl}/chat/completions` with `stream: true` (PROTOCOLS.md §2.2, §6.1).
 * `chat()` yields a `text-delta` per non-empty content delta, each tool call whole once the
 * finish reason arrives, and one `finish` (mapped reason, usage from the usage chunk) at
 * `[DONE]` or at the end of the body after a finish reason. It throws:
 * - what the transport throws (ProviderError for an HTTP error status, TimeoutError, AbortError);
 *   an error status naming an unknown model has `unknownModel` (see `readOpenAiHttpError`);
 * - ProviderError for an error inside the 200 stream, `partialOutput` set when output was yielded,
 *   or sent whole as a 200 JSON document instead of the stream (see `eventStreamAnswer`);
 * - ProtocolError for malformed JSON, a chunk that does not fit the schema, a body that
 *   ends with neither a finish reason nor `[DONE]` (truncated), or a 200 answer that is not an
 *   event stream (an HTML page, a JSON document that is no error: see `eventStreamAnswer`).
 * A delta whose bytes are already read reaches the caller by plain calls (see `assembledSse`).
 * Each `tool_calls` fragment is told to `report` as it is read.
 * `continuesAssistantMessage` is true only for kind `'openai-compatible'` with
 * `options.continueFinalMessage` (see {@link OpenAiChatOptions}).
 */
export function createOpenAiChat(
  endpoint: HttpEndpoint,
  kind: 'openai' | 'openai-compatible',
  options: OpenAiChatOptions = {},
): ChatProvider {
  const url = endpointUrl(endpoint, '/chat/completions');
  return {
    continuesAssistantMessage: openAiContinuesAssistantMessage(kind, options.continueFinalMessage),
    chat(
      request: ProviderChatRequest,
      attempt: AttemptContext,
      report?: ChatStreamReport,
    ): AsyncIterable<ChatEvent> {
      return new OpenedStream(async () => {
        const provider = endpoint.provider;
        const response = await eventStreamAnswer(
          provider,
          await postToEndpoint(endpoint, attempt, url, {
            contentType: 'application/json',
            accept: 'text/event-stream',
            body: JSON.stringify(chatRequestBody(request, kind)),
            errors: readOpenAiHttpError,
          }),
        );
        const assembler = new ChatStreamAssembler(provider, report);
        return assembledSse(provider, response, assembler, (value) => ({
          events: assembler.push(
            parseWire(chatChunkShape, value, provider, 'chat chunk', assembler.hadOutput),
          ),
          done: false,
        }));
      });
    },
  };
}
