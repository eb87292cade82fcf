import { ProtocolError } from '../../errors/index.js';
import { declaredAudio, rawAnswerFormat } from '../shared/answer-audio.js';
import { postToEndpoint } from '../shared/http-endpoint.js';
import { OpenedStream } from '../shared/opened-stream.js';
import { sniffedBodyAudio } from '../shared/sniffed-body-audio.js';
import { readUnknownModelHttpError } from '../shared/unknown-model.js';
import type { AttemptContext } from '../types.js';
import { type CartesiaEndpoint, cartesiaUrl } from './endpoint.js';
import type { CartesiaTtsOptions } from './options.js';
import type { CartesiaAudio } from './tts-events.js';
import { type CartesiaTtsRequest, ttsBody } from './tts-request.js';

/**
 * TTS over `POST {baseUrl}/tts/bytes` (PROTOCOLS.md 1.3): the JSON body of `ttsBody` with
 * `output_format: {container:'raw', encoding, sample_rate}` of `request.format`; the answer is
 * the audio itself, streamed as it is generated, each body chunk yielded as it arrives and
 * labelled `request.format`, at the rate a raw Content-Type names when it names one
 * (`audio/pcm; rate=16000`: the router converts). Chunks may split a sample: the router
 * re-frames. No timestamps.
 *
 * The spec types every answer `audio/wav` and the real Content-Type of raw output is
 * UNCONFIRMED, so the body is sniffed instead: one that starts with a RIFF/WAVE header is read
 * as a streamed WAV and labelled with the header's format (never relabelled). Throws what
 * the transport throws (ProviderError for an error status, TimeoutError, AbortError,
 * ProtocolError for a cut body), and ProtocolError when the Content-Type is compressed audio,
 * JSON or text, a raw type of one encoding (`audio/L16`, `audio/basic`), or more than one
 * channel.
 */
export function synthesizeBytes(
  endpoint: CartesiaEndpoint,
  options: CartesiaTtsOptions,
  request: CartesiaTtsRequest & { text: string },
  attempt: AttemptContext,
): AsyncIterableIterator<CartesiaAudio> {
  // Raw samples, the common case, are read by plain calls from the transport's body (no
  // generator step per chunk): see OpenedStream.
  return new OpenedStream<CartesiaAudio>(async () => {
    const provider = endpoint.provider;
    const body = ttsBody(provider, request, options, request.text, false);
    const response = await postToEndpoint(endpoint.http, attempt, cartesiaUrl(endpoint, '/tts/bytes'), {
      contentType: 'application/json',
      accept: '*/*',
      body: JSON.stringify(body),
      errors: readUnknownModelHttpError,
    });
    try {
      const contentType = response.headers['content-type'] ?? '';
      const declared = declaredAudio(contentType);
      // Raw types of one encoding (`audio/L16`, `audio/basic`) are refused, as compressed and
      // non-audio types are.
      const raw =
        declared.kind === 'wav' ||
        declared.kind === 'unlabelled' ||
        (declared.kind === 'raw' && declared.encoding === undefined);
      if (!raw) {
        throw new ProtocolError(
          `/tts/bytes answered with Content-Type '${contentType}', not the raw audio or WAV asked for`,
          {
            provider,
          },
        );
      }
      // A sample rate named by the raw type (`audio/pcm; rate=16000`) labels the bytes, so that
      // the router converts them; a WAV is sniffed below.
      const format =
        declared.kind === 'raw'
          ? rawAnswerFormat(provider, '/tts/bytes answer', contentType, declared, request.format)
          : request.format;
      return await sniffedBodyAudio(provider, response, format);
    } catch (error) {
      await response.cancel();
      throw error;
    }
  });
}
