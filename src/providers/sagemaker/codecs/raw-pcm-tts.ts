import type { SageMakerTtsCodec } from '../codec.js';

/**
 * Codec `'raw-pcm'` for TTS: a container that answers with raw PCM s16le mono.
 * - Body: JSON `{text, voice, model?, language?, speed?, sample_rate, encoding: 'pcm_s16le'}`
 *   (`model` from `tts.model`); content type `application/json`, accept `audio/pcm`.
 * - Output formats: PCM s16le mono at the configured sample rate.
 * - Reply: every PayloadPart's bytes, as they come, labelled with the requested format (a
 *   part may split a sample: the router re-frames). The end of the stream ends the audio.
 * For another request shape, register a codec of your own (`registerSageMakerCodec`).
 */
export const rawPcmTtsCodec: SageMakerTtsCodec = {
  capability: 'tts',
  outputFormats: (sampleRate) => [{ encoding: 'pcm_s16le', sampleRate, channels: 1 }],
  encode({ request }) {
    const body: Record<string, unknown> = { text: request.text, voice: request.voice };
    if (request.model !== undefined) body.model = request.model;
    if (request.language !== undefined) body.language = request.language;
    if (request.speed !== undefined) body.speed = request.speed;
    body.sample_rate = request.format.sampleRate;
    body.encoding = 'pcm_s16le';
    return { body: JSON.stringify(body), contentType: 'application/json', accept: 'audio/pcm' };
  },
  async *decode(parts, { request }) {
    for await (const data of parts) {
      if (data.byteLength > 0) yield { data, format: request.format };
    }
  },
};
