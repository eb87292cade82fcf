import type { ChatEvent } from '../../types/chat.js';
import type { AttemptContext, ChatProvider, ChatStreamReport, ProviderChatRequest } from '../types.js';
import type { ChatCodecCall, SageMakerChatCodec } from './codec.js';
import { runResponseStream, type SageMakerTarget } from './response-stream.js';
import type { SageMakerStreamClient } from './stream-client.js';

/**
 * Chat over `InvokeEndpointWithResponseStream` (PROTOCOLS.md 5.1): `codec.encode` builds the
 * body, `codec.decode` reads the PayloadPart bytes. Text deltas and tool calls count as output
 * for `partialOutput`; the codec tells `report` of tool calls as they stream (see
 * {@link ChatCodecCall}). Throws what `runResponseStream` throws.
 */
export function createSageMakerChat(
  client: SageMakerStreamClient,
  target: SageMakerTarget,
  codec: SageMakerChatCodec,
): ChatProvider {
  return {
    chat(
      request: ProviderChatRequest,
      attempt: AttemptContext,
      report?: ChatStreamReport,
    ): AsyncIterable<ChatEvent> {
      const call: ChatCodecCall = { provider: target.provider, request, sampleRate: 0 };
      if (report) call.report = report;
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
