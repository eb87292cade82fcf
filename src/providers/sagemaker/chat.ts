import type { ChatEvent } from '../../types/chat.js';
import type { AttemptContext, ChatProvider, ProviderChatRequest } from '../types.js';
import type { SageMakerChatCodec } from './codec.js';
import { runResponseStream, type SageMakerTarget } from './response-stream.js';
import type { SageMakerStreamClient } from './stream-client.js';

/**
 * Chat over `InvokeEndpointWithResponseStream` (PROTOCOLS.md 5.1): `codec.encode` builds the
 * body, `codec.decode` reads the PayloadPart bytes. Text deltas and tool calls count as output
 * for `partialOutput`. Throws what `runResponseStream` throws.
 */
export function createSageMakerChat(
  client: SageMakerStreamClient,
  target: SageMakerTarget,
  codec: SageMakerChatCodec,
): ChatProvider {
  return {
    chat(request: ProviderChatRequest, attempt: AttemptContext): AsyncIterable<ChatEvent> {
      const call = { provider: target.provider, request, sampleRate: 0 };
      return runResponseStream(
        client,
        target,
        codec.encode(call),
        attempt,
        (parts) => codec.decode(parts, call),
        (event) => event.type !== 'finish',
      );
    },
  };
}
