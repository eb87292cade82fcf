import { ProtocolError } from '../../errors/index.js';
import type { HttpResponse } from '../../transport/types.js';
import type { AudioFormat } from '../../types/audio.js';
import { declaredAudio, rawAnswerFormat } from '../shared/answer-audio.js';
import { assembledSse } from '../shared/assembled-sse.js';
import { decodeBase64Audio } from '../shared/base64-audio.js';
import { eventStreamAnswer } from '../shared/event-stream-answer.js';
import { endpointUrl, type HttpEndpoint, postToEndpoint } from '../shared/http-endpoint.js';
import { cancelUnlessEnded } from '../shared/opened-audio.js';
import { OpenedStream } from '../shared/opened-stream.js';
import { parseWire } from '../shared/parse-wire.js';
import { sniffedBodyAudio } from '../shared/sniffed-body-audio.js';
import { wavBodyAudio } from '../shared/wav-body-audio.js';
import type {
  AttemptContext,
  ProviderAudio,
  ProviderTtsRequest,
  TtsCapabilities,
  TtsProvider,
} from '../types.js';
import { speechEventShape } from './api-types.js';
import { readOpenAiHttpError } from './http-errors.js';
import { DEFAULT_TTS_SAMPLE_RATE, type OpenAiTtsOptions } from './options.js';
import { speechRequestBody } from './speech-request.js';

/**
 * Text-to-speech over `POST {baseUrl}/audio/speech` (PROTOCOLS.md §2.3, §6.2, §6.3).
 * `capabilities.outputFormats` is `[pcm_s16le at sampleRate]` (for `wav` too: the real format
 * is only known from the header, and each chunk is labelled with it); no streaming text, no
 * word timestamps. `synthesize()` yields the audio as it arrives:
 * - `pcm`: the body's chunks as they are (they may split a sample: the router re-frames),
 *   labelled PCM s16le at `sampleRate`, or at the rate a raw Content-Type names
 *   (`audio/pcm; rate=16000`: the router converts), unless the body starts with a WAV header
 *   `RIFF....WAVE` (a server that ignored `response_format` and labelled a WAV file
 *   `application/octet-stream` or `audio/pcm`): then
 *   it is read as the WAV below (see `sniffedBodyAudio`);
 * - `wav`, or any answer whose `Content-Type` is a WAV type: the data of the streamed WAV,
 *   labelled with the header's format (never relabelled);
 * - `sse`: the decoded base64 of each `speech.audio.delta`, as PCM s16le at `sampleRate`,
 *   until `speech.audio.done` (with `usage`, or speaches' `token_usage`) or `[DONE]`.
 * Throws what the transport throws (ProviderError for an error status, including
 * FastAPI-style `{"detail": ...}` bodies of Kokoro and speaches, `unknownModel` when it names an
 * unknown model or voice: `readOpenAiHttpError`; TimeoutError; AbortError;
 * ProtocolError for a body shorter than its Content-Length); ProtocolError when a
 * raw-audio answer is a compressed type (e.g. `audio/mpeg`) rather than PCM, when an SSE
 * stream ends before `speech.audio.done`, for malformed events, or when `sse` is asked for and
 * the answer is not an event stream (an HTML page, a JSON document that is no error: see
 * `eventStreamAnswer`); ProviderError for an error event inside an SSE stream, or an error
 * sent whole as a 200 JSON document instead of it.
 */
export function createOpenAiSpeech(endpoint: HttpEndpoint, options: OpenAiTtsOptions): TtsProvider {
  const url = endpointUrl(endpoint, '/audio/speech');
  const pcmFormat: AudioFormat = {
    encoding: 'pcm_s16le',
    sampleRate: options.sampleRate ?? DEFAULT_TTS_SAMPLE_RATE,
  };
  const capabilities: TtsCapabilities = {
    outputFormats: [{ ...pcmFormat }],
    streamingText: false,
    wordTimestamps: false,
  };
  const sse = options.streamFormat === 'sse';
  return {
    capabilities,
    synthesize(request: ProviderTtsRequest, attempt: AttemptContext): AsyncIterable<ProviderAudio> {
      // Raw PCM, the common case, is read by plain calls from the transport's body (no
      // generator step per chunk): see OpenedStream.
      return new OpenedStream(async () => {
        const provider = endpoint.provider;
        const response = await postToEndpoint(endpoint, attempt, url, {
          contentType: 'application/json',
          accept: sse ? 'text/event-stream' : 'application/octet-stream',
          body: JSON.stringify(speechRequestBody(request, options)),
          errors: readOpenAiHttpError,
        });
        // Kept as sent: it may go into a message, where a lower-cased echo of a key would
        // escape redaction. Compared in lower case.
        const contentType = response.headers['content-type'] ?? '';
        if (contentType.toLowerCase().includes('text/event-stream'))
          return sseAudio(provider, response, pcmFormat);
        if (sse) return sseAudio(provider, await eventStreamAnswer(provider, response), pcmFormat);
        const declared = declaredAudio(contentType);
        // Raw types of one encoding (`audio/L16`: big-endian by RFC 2586, `audio/basic`) are
        // refused, as compressed and non-audio types are.
        const pcm =
          declared.kind === 'wav' ||
          declared.kind === 'unlabelled' ||
          (declared.kind === 'raw' && declared.encoding === undefined);
        if (!pcm) {
          await response.cancel();
          throw new ProtocolError(`Speech answer has Content-Type '${contentType}', not PCM or WAV`, {
            provider,
          });
        }
        if (declared.kind === 'wav' || options.responseFormat === 'wav')
          return cancelUnlessEnded(response, wavBodyAudio(provider, response.body));
        let format: AudioFormat;
        try {
          // A sample rate named by the raw type (`audio/pcm; rate=16000`) labels the bytes: a
          // server that ignored the rate asked for is converted, never played at the wrong rate.
          format = rawAnswerFormat(provider, 'Speech answer', contentType, declared, pcmFormat);
        } catch (error) {
          await response.cancel();
          throw error;
        }
        // A server that ignores response_format 'pcm' may still answer a WAV file (sniffed).
        return sniffedBodyAudio(provider, response, format);
      });
    },
  };
}

/**
 * The audio of a `speech.audio.delta` event stream, by plain calls when the body's bytes are
 * already read (see `assembledSse`): each delta's base64 decoded (empty ones skipped), until
 * `speech.audio.done` or `[DONE]`; a body that ends before either is truncated.
 */
function sseAudio(
  provider: string,
  response: HttpResponse,
  format: AudioFormat,
): AsyncIterator<ProviderAudio> {
  const audio = {
    hadOutput: false,
    end(how: 'done' | 'eof'): ProviderAudio[] {
      if (how === 'done') return [];
      throw new ProtocolError('Speech event stream ended before speech.audio.done (truncated)', {
        provider,
        partialOutput: audio.hadOutput,
      });
    },
  };
  return assembledSse(provider, response, audio, (value) => {
    const event = parseWire(speechEventShape, value, provider, 'speech event', audio.hadOutput);
    if (event.type === 'speech.audio.done') return { events: [], done: true };
    if (event.type === 'speech.audio.delta' && event.audio) {
      const data = decodeBase64Audio(event.audio, provider, audio.hadOutput);
      if (data.byteLength > 0) {
        audio.hadOutput = true;
        return { events: [{ data, format }], done: false };
      }
    }
    return { events: [], done: false };
  });
}
