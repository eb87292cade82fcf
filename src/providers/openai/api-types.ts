import { wireNullish, wireObject, wireString } from '../shared/wire-shape.js';

/*
 * Wire shapes of the OpenAI API that only the OpenAI adapters read (speech, the JSON
 * transcription). Every object is loose: unknown fields are kept and ignored,
 * and fields we do not read are not declared. Sources: PROTOCOLS.md §2 (OpenAI: ONODE, OAS) and
 * §6 (vLLM, Kokoro-FastAPI, speaches). The shapes SageMaker's codecs read too (chat chunks and
 * requests, streamed transcription events) are in src/providers/shared/openai-wire/api-types.ts.
 *
 * The frames of a call (`xShape`) are wire shapes (src/providers/shared/wire-shape.ts): checked
 * without zod when they fit, so the first call does not load zod; `parseWire(xShape, ...)`.
 */

const str = wireNullish(wireString);

/** The `/audio/speech` request body voxroute sends (OAS `CreateSpeechRequest`). */
export interface WireSpeechRequest {
  model?: string;
  input: string;
  voice: string;
  response_format: 'pcm' | 'wav';
  speed?: number;
  stream_format?: 'sse';
}

/**
 * Events of `/audio/speech` with `stream_format: 'sse'`: `speech.audio.delta` carries base64
 * audio; `speech.audio.done` ends the stream with `usage` (OpenAI) or `token_usage` (speaches).
 */
export const speechEventShape = wireObject({ type: wireString, audio: str });

/** The non-streamed transcription answer with `response_format: 'json'`: `{text}`. */
export const transcriptionJsonShape = wireObject({ text: wireString });
