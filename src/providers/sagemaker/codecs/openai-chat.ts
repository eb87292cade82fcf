import { chatChunkShape } from '../../shared/openai-wire/api-types.js';
import { chatRequestBody } from '../../shared/openai-wire/chat-request.js';
import { ChatStreamAssembler } from '../../shared/openai-wire/chat-stream.js';
import { parseWire } from '../../shared/parse-wire.js';
import type { SageMakerChatCodec } from '../codec.js';
import { jsonMessages } from '../framing.js';

/** The chat model id that means "the endpoint's only model": the body then names no `model`. */
export const DEFAULT_MODEL_ID = 'default';

/**
 * Codec `'openai-chat'`: the OpenAI Chat Completions payload that vLLM, LMI (DJL Serving) and
 * TGI's Messages API accept inside a SageMaker container.
 * - Body: the same JSON as the `openai-compatible` adapter (`messages`, `stream: true`,
 *   `stream_options.include_usage`, `max_tokens`, `temperature`, `tools`), with `model` left
 *   out when the configured id is `'default'`. Content type `application/json`, accept
 *   `text/event-stream`.
 * - Reply: `chat.completion.chunk` objects framed as SSE (`data: ...\n\n`) or JSON lines
 *   (detected from the first byte), read with the chunk shape and assembler the OpenAI
 *   adapter uses (providers/shared/openai-wire): text deltas, whole tool calls (each fragment
 *   told to the call's `report`), one `finish` at `[DONE]` or at the end after a finish reason.
 *   A stream that ends with neither is a truncated ProtocolError; `{"error":...}` inside the
 *   stream is a ProviderError. Source: PROTOCOLS.md 2.2 and 6.1 (the vLLM wire format).
 */
export const openAiChatCodec: SageMakerChatCodec = {
  capability: 'chat',
  encode({ request }) {
    const { model, ...rest } = chatRequestBody(request, 'openai-compatible');
    const body = model === DEFAULT_MODEL_ID ? rest : { model, ...rest };
    return { body: JSON.stringify(body), contentType: 'application/json', accept: 'text/event-stream' };
  },
  async *decode(parts, { provider, report }) {
    const assembler = new ChatStreamAssembler(provider, report);
    for await (const message of jsonMessages(parts, { provider })) {
      if (message.kind === 'done') {
        yield* assembler.end('done');
        return;
      }
      yield* assembler.push(parseWire(chatChunkShape, message.value, provider, 'chat chunk', false));
    }
    yield* assembler.end('eof');
  },
};
