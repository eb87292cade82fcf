import type { ChatEvent } from '../../types/chat.js';
import { endpointUrl, type HttpEndpoint, postToEndpoint } from '../shared/http-endpoint.js';
import { parseWire } from '../shared/parse-wire.js';
import { sseJsonEvents } from '../shared/sse-json-events.js';
import type { AttemptContext, ChatProvider, ProviderChatRequest } from '../types.js';
import { chatChunkSchema } from './api-types.js';
import { chatRequestBody } from './chat-request.js';
import { ChatStreamAssembler } from './chat-stream.js';

/**
 * Chat over `POST {baseUrl}/chat/completions` with `stream: true` (PROTOCOLS.md §2.2, §6.1).
 * `chat()` yields a `text-delta` per non-empty content delta, each tool call whole once the
 * finish reason arrives, and one `finish` (mapped reason, usage from the usage chunk) at
 * `[DONE]` or at the end of the body after a finish reason. It throws:
 * - what the transport throws (ProviderError for an HTTP error status, TimeoutError, AbortError);
 * - ProviderError for an error inside the 200 stream (C06), `partialOutput` set when output was yielded;
 * - ProtocolError for malformed JSON, a chunk that does not fit the schema, or a body that
 *   ends with neither a finish reason nor `[DONE]` (truncated, C29).
 */
export function createOpenAiChat(endpoint: HttpEndpoint, kind: 'openai' | 'openai-compatible'): ChatProvider {
  const url = endpointUrl(endpoint, '/chat/completions');
  return {
    async *chat(request: ProviderChatRequest, attempt: AttemptContext): AsyncGenerator<ChatEvent> {
      const provider = endpoint.provider;
      const response = await postToEndpoint(endpoint, attempt, url, {
        contentType: 'application/json',
        accept: 'text/event-stream',
        body: JSON.stringify(chatRequestBody(request, kind)),
      });
      const assembler = new ChatStreamAssembler(provider);
      let ended = false;
      try {
        for await (const item of sseJsonEvents(provider, response.body, () => assembler.hadOutput)) {
          if (item.kind === 'done') {
            ended = true;
            yield* assembler.end('done');
            return;
          }
          const chunk = parseWire(chatChunkSchema(), item.value, provider, 'chat chunk', assembler.hadOutput);
          yield* assembler.push(chunk);
        }
        ended = true;
        yield* assembler.end('eof');
      } finally {
        if (!ended) await response.cancel();
      }
    },
  };
}
