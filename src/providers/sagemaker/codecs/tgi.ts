import type { SageMakerChatCodec } from '../codec.js';
import { textGenerationEvents, textGenerationInvocation } from './text-generation.js';

/**
 * Codec `'tgi'`: Hugging Face Text Generation Inference's `generate_stream` payload, as the
 * Hugging Face LLM container on SageMaker serves it. Body `{inputs, parameters, stream: true}`
 * (see `textGenerationInvocation`); reply: SSE `data: {"token":{...},"generated_text":...,"details":...}`
 * (JSON lines are accepted too), text from each non-special token, the finish reason from the
 * last message's `details`. A stream without that last message is truncated (ProtocolError);
 * `data: {"error":"...","error_type":"..."}` is a ProviderError. These formats are de-facto
 * container formats (TGI's API), not part of the SageMaker API in PROTOCOLS.md section 5.
 */
export const tgiCodec: SageMakerChatCodec = {
  capability: 'chat',
  encode: ({ request }) => textGenerationInvocation(request, 'text/event-stream'),
  decode: (parts, { provider }) => textGenerationEvents(parts, provider, 'auto', true),
};
