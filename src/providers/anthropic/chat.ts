import type { ChatEvent } from '../../types/chat.js';
import { assembledSse } from '../shared/assembled-sse.js';
import { eventStreamAnswer } from '../shared/event-stream-answer.js';
import { OpenedStream } from '../shared/opened-stream.js';
import { parseWire } from '../shared/parse-wire.js';
import type { AttemptContext, ChatProvider, ChatStreamReport, ProviderChatRequest } from '../types.js';
import { streamEventShape } from './api-types.js';
import { type AnthropicEndpoint, postMessages } from './http.js';
import { messagesRequest } from './messages-request.js';
import { MessageStreamAssembler } from './messages-stream.js';
import { ANTHROPIC_CONTINUES_ASSISTANT_MESSAGE } from './options.js';
import { withoutRepeatedSeam } from './prefill-seam.js';

/**
 * True when an event's data is `message_stop`, the end of a Messages stream (PROTOCOLS.md 6b:
 * there is no `[DONE]`). Cheap on every other event: a length and substring test first.
 */
export function isMessageStop(data: string): boolean {
  if (data.length > 256 || !data.includes('message_stop')) return false;
  try {
    return (JSON.parse(data) as { type?: unknown } | null)?.type === 'message_stop';
  } catch {
    return false;
  }
}

/**
 * Chat over `POST {baseUrl}/v1/messages` with `stream: true` (PROTOCOLS.md 6b). `chat()` yields a
 * `text-delta` per non-empty `text_delta`, each tool call whole at its `content_block_stop`, and
 * one `finish` (stop reason and usage from `message_start` and `message_delta`) at
 * `message_stop`. `ping` is ignored. After `message_stop` the rest of the body is read in the
 * background so the keep-alive connection can be reused. It throws:
 * - what the transport throws (ProviderError for an HTTP error status with Anthropic's error
 *   type, e.g. 429 `rate_limit_error` with `retryAfterMs`, 529 `overloaded_error`; TimeoutError;
 *   AbortError);
 * - ProviderError for an `event: error` inside the 200 stream, with `providerType` (e.g.
 *   `overloaded_error`, retryable; `invalid_request_error`, not) and `partialOutput` true when
 *   text or a tool call had been yielded;
 * - ProviderError for Anthropic's error sent whole as a 200 JSON document instead of the
 *   stream, as for `event: error` (see `eventStreamAnswer`);
 * - ProtocolError for data that is not JSON, an event that does not fit its schema, a body
 *   that ends before `message_stop` (truncated), or a 200 answer that is not an event stream
 *   (an HTML page, a JSON document that is no error);
 * - VoxrouteError (usage error) when a tool call in the history has arguments that are not a JSON object.
 * A delta whose bytes are already read reaches the caller by plain calls (see `assembledSse`).
 * Each tool_use block is told to `report` as it streams (see `MessageStreamAssembler`). A
 * prefill (a trailing assistant message) is sent without its trailing white space, and the
 * continuation's repeat of that white space is dropped (see `withoutRepeatedSeam`).
 */
export function createAnthropicChat(endpoint: AnthropicEndpoint, defaultMaxTokens: number): ChatProvider {
  return {
    continuesAssistantMessage: ANTHROPIC_CONTINUES_ASSISTANT_MESSAGE,
    chat(
      request: ProviderChatRequest,
      attempt: AttemptContext,
      report?: ChatStreamReport,
    ): AsyncIterable<ChatEvent> {
      return new OpenedStream(async () => {
        const provider = endpoint.provider;
        const { body: wire, trimmed } = messagesRequest(request, defaultMaxTokens);
        const body = JSON.stringify(wire);
        const response = await eventStreamAnswer(provider, await postMessages(endpoint, attempt, body));
        const assembler = new MessageStreamAssembler(provider, report);
        const messages = {
          get hadOutput() {
            return assembler.hadOutput;
          },
          end(how: 'done' | 'eof'): ChatEvent[] {
            if (how === 'eof') throw assembler.truncated();
            return assembler.finish();
          },
        };
        const events = assembledSse(
          provider,
          response,
          messages,
          (value) => ({
            events: assembler.push(
              parseWire(streamEventShape, value, provider, 'Messages stream event', assembler.hadOutput),
            ),
            done: false,
          }),
          isMessageStop,
        );
        // A prefill trimmed of its trailing white space: the continuation's repeat of it is dropped.
        return trimmed === '' ? events : withoutRepeatedSeam(events, trimmed);
      });
    },
  };
}
