import type { SageMakerChatCodec } from '../codec.js';
import { textGenerationEvents, textGenerationInvocation } from './text-generation.js';

/**
 * Codec `'jsonlines'`: LMI (DJL Serving) with `output_formatter: jsonlines`: one JSON object a
 * line, `{"token":{"text":...}}` or the older `{"outputs":[" a"]}`. Body as for `'tgi'`; accept
 * `application/jsonlines`. The end of the stream ends the reply, also when the last line has
 * no newline; the finish reason comes from a `details` object when one is sent, else it
 * is `'other'`. Sources: the public reports (sagemaker-python-sdk#6278, langchain#16219).
 */
export const jsonLinesChatCodec: SageMakerChatCodec = {
  capability: 'chat',
  encode: ({ request }) => textGenerationInvocation(request, 'application/jsonlines'),
  decode: (parts, { provider }) => textGenerationEvents(parts, provider, 'jsonlines', false),
};
