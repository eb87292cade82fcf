import { ProtocolError, ProviderError } from '../../errors/index.js';
import type { AudioFormat } from '../../types/audio.js';
import { declaredAudio, rawAnswerFormat } from '../shared/answer-audio.js';
import { readingHttpErrors } from '../shared/http-error-verdict.js';
import { sniffedBodyAudio } from '../shared/sniffed-body-audio.js';
import { wavBodyAudio } from '../shared/wav-body-audio.js';
import type { AttemptContext, ProviderTtsRequest } from '../types.js';
import type { ElevenLabsEndpoint, WireVoiceSettings } from './endpoint.js';
import { languageCode, ttsUrl, wireVoiceSettings } from './endpoint.js';
import { outputFormatName } from './formats.js';
import { readElevenLabsHttpError } from './http-errors.js';
import type { ElevenLabsTtsOptions } from './options.js';
import type { ElevenLabsAudio } from './types.js';

/** The JSON body of `POST /v1/text-to-speech/{voice_id}/stream` that voxroute sends (ELJS `StreamTextToSpeechRequest.Raw`). */
export interface WireStreamRequest {
  text: string;
  model_id?: string;
  language_code?: string;
  voice_settings?: WireVoiceSettings;
}

/**
 * The `output_format` for `format`, or a ProviderError (not retryable) when ElevenLabs cannot
 * produce it: the router only asks for formats of `capabilities.outputFormats`, so this means a
 * caller bypassed it.
 */
export function requireOutputFormat(provider: string, format: AudioFormat): string {
  const name = outputFormatName(format);
  if (name === undefined) {
    throw new ProviderError(
      `ElevenLabs cannot produce ${format.encoding} at ${format.sampleRate} Hz natively`,
      { provider, retryable: false },
    );
  }
  return name;
}

/** The body of one HTTP stream request (PROTOCOLS.md 4.2): snake_case keys, unset fields left out. */
export function streamRequestBody(
  request: ProviderTtsRequest,
  options: ElevenLabsTtsOptions,
): WireStreamRequest {
  const body: WireStreamRequest = { text: request.text };
  const model = request.model ?? options.model;
  if (model !== undefined) body.model_id = model;
  const language = languageCode(request.language);
  if (language !== undefined) body.language_code = language;
  const settings = wireVoiceSettings(options.voiceSettings, request.speed);
  if (settings !== undefined) body.voice_settings = settings;
  return body;
}

/**
 * True for a 200 answer's Content-Type that cannot be audio: JSON or text (a proxy page, an
 * error served with 200).
 */
export function isNonAudioType(contentType: string): boolean {
  return declaredAudio(contentType).kind === 'not-audio';
}

const WHAT = 'ElevenLabs answer';

/**
 * Text-to-speech over `POST {baseUrl}/v1/text-to-speech/{voice}/stream?output_format=<format>`
 * (PROTOCOLS.md 4.2, ELJS): headers `xi-api-key` and `accept-encoding: identity`, JSON body of {@link streamRequestBody},
 * `optimize_streaming_latency` in the query when configured. Yields the body's chunks as they
 * arrive (they may split a sample), labelled with `request.format`, or with what the
 * Content-Type names when it names a raw format (`audio/L16; rate=16000`, `audio/basic`...);
 * a WAV answer (by its type or its first bytes) is read by its header. The first bytes of any
 * other answer are sniffed (see `sniffedBodyAudio`): `audio/mpeg`, the type ElevenLabs' spec
 * gives for every `output_format` (PROTOCOLS.md 4.2), says nothing on its own. Throws what the transport throws (ProviderError for an
 * error status, with ElevenLabs' `{"detail":{status,message}}` or validation `{"detail":[...]}`
 * read into message and code, and read by {@link readElevenLabsHttpError}: a 401 for a quota is
 * retryable and not auth, an unknown voice or model is `unknownModel`); TimeoutError; AbortError; ProtocolError for a cut body);
 * ProtocolError (retryable) when a 200 answer is JSON or text, when its Content-Type
 * contradicts the requested format (Ogg, Opus, another encoding without a rate), or when its
 * first bytes are MP3 (an ID3 tag, or two MPEG frame headers one frame apart), another file
 * (Ogg, FLAC...) or JSON/HTML text, whatever its Content-Type; ProviderError when `request.format` is not one ElevenLabs
 * makes.
 */
export async function* httpStream(
  endpoint: ElevenLabsEndpoint,
  options: ElevenLabsTtsOptions,
  request: ProviderTtsRequest,
  attempt: AttemptContext,
): AsyncGenerator<ElevenLabsAudio> {
  const { provider } = endpoint;
  const outputFormat = requireOutputFormat(provider, request.format);
  const url = ttsUrl(endpoint, request.voice, 'stream', {
    output_format: outputFormat,
    optimize_streaming_latency: options.optimizeStreamingLatency,
  });
  const response = await readingHttpErrors(
    attempt.transport.request({
      provider,
      method: 'POST',
      url,
      headers: {
        'xi-api-key': endpoint.apiKey,
        'content-type': 'application/json',
        accept: '*/*',
        // No compressed body (voxroute does not decode one).
        'accept-encoding': 'identity',
      },
      body: JSON.stringify(streamRequestBody(request, options)),
      signal: attempt.signal,
      onErrorStatus: attempt.onErrorStatus,
      deadlines: attempt.deadlines,
    }),
    readElevenLabsHttpError,
  );
  let ended = false;
  try {
    const contentType = response.headers['content-type'] ?? '';
    const declared = declaredAudio(contentType);
    if (declared.kind === 'not-audio') {
      throw new ProtocolError(`ElevenLabs answered 200 with Content-Type '${contentType}', not audio`, {
        provider,
      });
    }
    if (declared.kind === 'wav') yield* wavBodyAudio(provider, response.body);
    else {
      // `audio/mpeg` is what the spec gives for every output_format, so it says nothing; the
      // first bytes tell MP3 (or another file, or text) from the raw samples asked for.
      const format =
        declared.kind === 'mpeg'
          ? { ...request.format }
          : rawAnswerFormat(provider, WHAT, contentType, declared, request.format);
      const audio = await sniffedBodyAudio(provider, response, format);
      yield* { [Symbol.asyncIterator]: () => audio };
    }
    ended = true;
  } finally {
    if (!ended) await response.cancel();
  }
}
