import { formatLabel } from '../../audio/format.js';
import { ProtocolError } from '../../errors/index.js';
import { declaredAudio, rawAnswerFormat } from '../shared/answer-audio.js';
import { readingHttpErrors } from '../shared/http-error-verdict.js';
import { sniffedBodyAudio } from '../shared/sniffed-body-audio.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';
import { wavBodyAudio } from '../shared/wav-body-audio.js';
import type {
  AttemptContext,
  ProviderAudio,
  ProviderTtsRequest,
  TtsCapabilities,
  TtsProvider,
} from '../types.js';
import { authorizationOf, type DeepgramEndpoint, deepgramUrl } from './endpoint.js';
import { DEEPGRAM_SPEAK_OUTPUT_FORMATS, deepgramEncoding } from './formats.js';

/**
 * The query of one `/v1/speak` request, in order (PROTOCOLS.md 3.3: every option goes in the
 * query, the body is `{text}` only): `model` = the voice (e.g. `aura-2-thalia-en`), `encoding`
 * (`linear16`, `mulaw`, `alaw`), `sample_rate` in Hz, `container=none` (raw samples, no WAV
 * header), and `speed` when the request sets one. Throws ProtocolError for a format Deepgram
 * cannot produce raw (pcm_f32le): the router only asks for one of `outputFormats`.
 */
export function speakQuery(request: ProviderTtsRequest, provider: string): Array<[string, string]> {
  const encoding = deepgramEncoding(request.format.encoding);
  if (!encoding) {
    throw new ProtocolError(`Deepgram /v1/speak cannot produce ${formatLabel(request.format)}`, { provider });
  }
  const query: Array<[string, string]> = [
    ['model', request.voice],
    ['encoding', encoding],
    ['sample_rate', String(request.format.sampleRate)],
    ['container', 'none'],
  ];
  if (request.speed !== undefined) query.push(['speed', String(request.speed)]);
  return query;
}

/**
 * Text-to-speech over `POST {baseUrl}/v1/speak` (PROTOCOLS.md 3.3), through `attempt.transport`
 * with `Authorization: Token <key>`, `Content-Type: application/json`, `Accept-Encoding:
 * identity` and the body
 * `{"text": ...}`. The audio is streamed as it arrives, labelled with the format the answer's
 * Content-Type names (`audio/L16; rate=24000` is PCM s16le at 24000 Hz, `audio/basic` mu-law at
 * 8000 Hz, `audio/x-alaw` A-law...), the requested one for what it does not name or when it has
 * none (`application/octet-stream`, no header); a WAV body (by its type, or by its first bytes
 * `RIFF....WAVE`) is read by its header instead (see `sniffedBodyAudio`). Bytes are never labelled with a format they contradict. Capabilities:
 * `outputFormats` = {@link DEEPGRAM_SPEAK_OUTPUT_FORMATS}, no streaming text, no word timestamps.
 * Throws what the transport throws: ProviderError for an HTTP error status, with Deepgram's
 * `err_code` / `category` as `providerCode` / `providerType` and its `err_msg` / `message`
 * (PROTOCOLS.md 3.4), TimeoutError, AbortError; and ProtocolError (retryable: the route falls
 * back) when a 200 answer is JSON or text instead of audio, when its Content-Type contradicts
 * the requested format (compressed audio such as `audio/mpeg`; another encoding without a
 * sample rate; more than one channel), when its first bytes are another file (MP3, Ogg, FLAC...)
 * or JSON/HTML text (see `sniffedBodyAudio`), or a WAV body is malformed.
 */
export function createDeepgramSpeak(endpoint: DeepgramEndpoint): TtsProvider {
  const capabilities: TtsCapabilities = {
    outputFormats: DEEPGRAM_SPEAK_OUTPUT_FORMATS.map((format) => ({ ...format })),
    streamingText: false,
    wordTimestamps: false,
  };
  return {
    capabilities,
    async *synthesize(request: ProviderTtsRequest, attempt: AttemptContext): AsyncGenerator<ProviderAudio> {
      const provider = endpoint.provider;
      // A 400 "No such model/language/tier combination found." falls back (`namesUnknownModel`).
      const response = await readingHttpErrors(
        attempt.transport.request({
          provider,
          method: 'POST',
          url: deepgramUrl(endpoint, '/v1/speak', speakQuery(request, provider)),
          headers: {
            authorization: authorizationOf(endpoint),
            'content-type': 'application/json',
            accept: 'audio/*, application/octet-stream',
            // No compressed body (voxroute does not decode one).
            'accept-encoding': 'identity',
          },
          body: JSON.stringify({ text: request.text }),
          signal: attempt.signal,
          onErrorStatus: attempt.onErrorStatus,
          deadlines: attempt.deadlines,
        }),
        readUnknownModelHttpError,
      );
      // Kept as sent (declaredAudio reads any case): it may go into a message, where a
      // lower-cased echo of a key would escape redaction.
      const contentType = response.headers['content-type'] ?? '';
      let ended = false;
      try {
        const declared = declaredAudio(contentType);
        if (declared.kind === 'not-audio') {
          throw new ProtocolError(`Speak answer has Content-Type '${contentType}', not audio`, { provider });
        }
        // A WAV answer is read by its header; a raw one labelled with what its type names,
        // unless its first bytes are a WAV header (read as WAV), another file or text (failed).
        if (declared.kind === 'wav') yield* wavBodyAudio(provider, response.body);
        else {
          const format = rawAnswerFormat(provider, 'Speak answer', contentType, declared, request.format);
          const audio = await sniffedBodyAudio(provider, response, format);
          yield* { [Symbol.asyncIterator]: () => audio };
        }
        ended = true;
      } finally {
        if (!ended) await response.cancel();
      }
    },
  };
}
