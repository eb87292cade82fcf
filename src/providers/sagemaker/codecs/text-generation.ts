import { ProtocolError } from '../../../errors/index.js';
import { lazySchema } from '../../../internal/zod.js';
import type { ChatEvent, FinishReason } from '../../../types/chat.js';
import { parseWire } from '../../shared/parse-wire.js';
import type { ProviderChatRequest } from '../../types.js';
import type { SageMakerInvocation } from '../codec.js';
import { jsonMessages, type MessageFraming } from '../framing.js';
import { renderPrompt } from './prompt.js';

/**
 * The request body of text-generation containers (TGI `generate_stream`, LMI): `inputs` (the
 * conversation rendered by {@link renderPrompt}), `parameters` and `stream: true`.
 * `parameters.max_new_tokens` is the request's `maxTokens`; a `temperature` of 0 becomes
 * `do_sample: false` (greedy), since TGI rejects a temperature that is not strictly positive;
 * `details: true` asks for the finish reason. Tools are not sent (these APIs have none).
 */
export function textGenerationInvocation(request: ProviderChatRequest, accept: string): SageMakerInvocation {
  const parameters: Record<string, unknown> = { details: true, return_full_text: false };
  if (request.maxTokens !== undefined) parameters.max_new_tokens = request.maxTokens;
  if (request.temperature !== undefined) {
    if (request.temperature > 0) parameters.temperature = request.temperature;
    else parameters.do_sample = false;
  }
  return {
    body: JSON.stringify({ inputs: renderPrompt(request.messages), parameters, stream: true }),
    contentType: 'application/json',
    accept,
  };
}

/**
 * One streamed message of a text-generation container:
 * - TGI and LMI: `{"token":{"text","special"},"generated_text":null|string,"details":null|{"finish_reason"}}`,
 *   the last one with `generated_text` and `details`;
 * - older LMI `jsonlines`: `{"outputs":[" a"]}`.
 * Built on first call (zod is loaded then, see src/internal/zod.ts).
 */
const textGenerationSchema = lazySchema((z) =>
  z.looseObject({
    token: z.looseObject({ text: z.string().nullish(), special: z.boolean().nullish() }).nullish(),
    outputs: z.array(z.string()).nullish(),
    generated_text: z.string().nullish(),
    details: z.looseObject({ finish_reason: z.string().nullish() }).nullish(),
  }),
);

/** TGI / LMI `finish_reason` to voxroute's: `length`; `eos_token`, `stop_sequence`, `stop`: `stop`. */
export function mapTextGenerationFinish(reason: string | null | undefined): FinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'eos_token' || reason === 'stop_sequence' || reason === 'stop') return 'stop';
  return 'other';
}

/**
 * Chat events from a text-generation stream: a `text-delta` per non-empty, non-special token
 * (and per string of `outputs`), then one `finish`.
 * - `requireFinal` true (TGI): the stream must end with the message holding `generated_text`
 *   or `details`; ending without it is a truncated ProtocolError (retryable).
 * - `requireFinal` false (JSON lines): the end of the stream ends the reply; the finish reason
 *   is the one of `details`, else `'other'`.
 */
export async function* textGenerationEvents(
  parts: AsyncIterable<Uint8Array>,
  provider: string,
  framing: MessageFraming,
  requireFinal: boolean,
): AsyncGenerator<ChatEvent, void, undefined> {
  let finish: FinishReason | undefined;
  for await (const message of jsonMessages(parts, { provider, framing })) {
    if (message.kind === 'done') break;
    const value = parseWire(
      textGenerationSchema(),
      message.value,
      provider,
      'text-generation message',
      false,
    );
    const token = value.token;
    if (token && !token.special && token.text) yield { type: 'text-delta', text: token.text };
    for (const text of value.outputs ?? []) if (text) yield { type: 'text-delta', text };
    if (value.details || typeof value.generated_text === 'string') {
      finish = mapTextGenerationFinish(value.details?.finish_reason);
    }
  }
  if (finish === undefined && requireFinal) {
    throw new ProtocolError('Text-generation stream ended before its final message (truncated)', {
      provider,
    });
  }
  yield { type: 'finish', finishReason: finish ?? 'other' };
}
