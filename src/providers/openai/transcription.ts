import { durationMs } from '../../audio/format.js';
import { encodeWav } from '../../audio/wav-writer.js';
import { errorFromStreamPayload, isStreamErrorPayload } from '../../transport/index.js';
import type { TranscriptEvent } from '../../types/transcript.js';
import { assembledSse } from '../shared/assembled-sse.js';
import { collectAudio } from '../shared/collect-audio.js';
import { endpointUrl, type HttpEndpoint, postToEndpoint } from '../shared/http-endpoint.js';
import { readJsonBody } from '../shared/json-body.js';
import { transcriptionEventShape } from '../shared/openai-wire/api-types.js';
import { TranscriptAssembler } from '../shared/openai-wire/transcription-stream.js';
import { parseWire } from '../shared/parse-wire.js';
import type { AttemptContext, ProviderSttRequest, SttProvider } from '../types.js';
import { transcriptionJsonShape } from './api-types.js';
import { readOpenAiHttpError } from './http-errors.js';
import { encodeMultipart, type MultipartPart } from './multipart.js';
import type { OpenAiSttOptions } from './options.js';
import { openAiSttCapabilities } from './transcription-formats.js';

/**
 * Speech-to-text over `POST {baseUrl}/audio/transcriptions` (PROTOCOLS.md §2.4, §6.1, §6.3).
 * The caller's audio is collected until its iterator ends (OpenAI-compatible servers read a
 * whole file, and multipart needs the file before the fields after it), then sent as one
 * multipart/form-data body with the parts `file` (`audio.wav`, `audio/wav`: a 44-byte WAV
 * header with the exact data size, then the audio), `model`, `language` (when given: the
 * primary subtag of the BCP 47 tag, e.g. `en` for `en-US`, as Whisper takes ISO 639-1),
 * `response_format=json` and, when `streaming`, `stream=true`.
 * - A `text/event-stream` answer is read in any of the three dialects (see TranscriptAssembler):
 *   partials (when `interim`) carry the text so far; one `final` ends the stream.
 * - A JSON answer `{text}` (non-streaming, or a server that ignores `stream`, like whisper-1)
 *   gives one `final`; a 200 JSON answer holding an `error` object throws its ProviderError.
 * Empty audio sends nothing and yields nothing. Finals carry `startMs: 0` and `endMs` = the
 * audio's length in ms. Throws what the transport throws (ProviderError, with `unknownModel`
 * for an unknown model: `readOpenAiHttpError`; TimeoutError, AbortError), AbortError when the signal aborts while the audio is still being read,
 * ProviderError for an in-stream error, and ProtocolError for malformed or truncated streams.
 */
export function createOpenAiTranscription(endpoint: HttpEndpoint, options: OpenAiSttOptions): SttProvider {
  const url = endpointUrl(endpoint, '/audio/transcriptions');
  const capabilities = openAiSttCapabilities();
  return {
    capabilities,
    async *transcribe(request: ProviderSttRequest, attempt: AttemptContext): AsyncGenerator<TranscriptEvent> {
      const provider = endpoint.provider;
      const audio = await collectAudio(request.audio, attempt.signal);
      if (audio.byteLength === 0) return;
      const form = encodeMultipart(transcriptionParts(request, options, audio));
      const response = await postToEndpoint(endpoint, attempt, url, {
        contentType: form.contentType,
        accept: options.streaming ? 'text/event-stream, application/json' : 'application/json',
        body: form.body,
        errors: readOpenAiHttpError,
      });
      const audioMs = Math.round(durationMs(request.format, audio.byteLength));
      const assembler = new TranscriptAssembler(provider, request.interim, audioMs);
      if (!(response.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')) {
        const json = await readJsonBody(provider, response.body);
        if (isStreamErrorPayload(json)) throw errorFromStreamPayload(provider, json, undefined, false);
        const { text } = parseWire(transcriptionJsonShape, json, provider, 'transcription', false);
        yield* assembler.push({ type: 'transcript.text.done', text }).events;
        return;
      }
      yield* assembledSse(provider, response, assembler, (value) =>
        assembler.push(
          parseWire(transcriptionEventShape, value, provider, 'transcription event', assembler.hadOutput),
        ),
      );
    },
  };
}

/** The multipart parts of one transcription request, in order (the file first). */
export function transcriptionParts(
  request: ProviderSttRequest,
  options: OpenAiSttOptions,
  audio: Uint8Array,
): MultipartPart[] {
  const parts: MultipartPart[] = [
    { name: 'file', filename: 'audio.wav', contentType: 'audio/wav', data: encodeWav(request.format, audio) },
    { name: 'model', value: request.model ?? options.model },
  ];
  const language = request.language?.split('-')[0]?.toLowerCase();
  if (language) parts.push({ name: 'language', value: language });
  parts.push({ name: 'response_format', value: 'json' });
  if (options.streaming) parts.push({ name: 'stream', value: 'true' });
  return parts;
}
