import type {
  SharedV4Warning,
  SpeechModelV4,
  SpeechModelV4CallOptions,
  SpeechModelV4Result,
} from '@ai-sdk/provider';
import type { AudioFormat } from 'voxroute';
import { encodeWav, RequestError } from 'voxroute';
import { formatOption, stringOption, voxrouteOptions } from './provider-options.js';
import { RouteModel } from './route-model.js';

/** Default audio of {@link VoxrouteSpeechModel}: PCM s16le, 24 000 Hz, mono, in a WAV container (frozen). */
export const DEFAULT_SPEECH_FORMAT: Readonly<AudioFormat> = Object.freeze({
  encoding: 'pcm_s16le',
  sampleRate: 24_000,
  channels: 1,
});

/** Options of {@link createVoxroute}'s `speechModel()`. */
export interface VoxrouteSpeechOptions {
  /** Route of the router config to call. Default: the router's default (`'tts'`). */
  route?: string | undefined;
}

/**
 * A voxroute TTS route as an AI SDK speech model (specification v4), for `generateSpeech()`.
 * `modelId` is the default logical voice; a per-call `voice` overrides it.
 *
 * Per call: `outputFormat` `'wav'` (default: a WAV file) or `'pcm'` (raw samples, no header:
 * the AI SDK then guesses the media type from the bytes, which can mislabel it, so read
 * `providerMetadata.voxroute` for the format); `providerOptions.voxroute.encoding` and
 * `sampleRate` (Hz) choose the samples (default PCM s16le at 24 000 Hz); `speed` and
 * `language` pass through; `instructions` is not supported (a warning).
 *
 * @throws RequestError for another `outputFormat` (voxroute does not encode MP3 or Opus),
 *   a bad provider option, no voice at all, or a `text` that is empty, only white space or
 *   without a letter or digit (nothing to speak: it would have given a WAV file of no samples,
 *   which the AI SDK's NoSpeechGeneratedError check passes), before any provider is contacted;
 *   the router's errors (AllProvidersFailedError...) after it fell back across the route.
 */
export class VoxrouteSpeechModel extends RouteModel<VoxrouteSpeechOptions> implements SpeechModelV4 {
  readonly provider = 'voxroute.speech';

  async doGenerate(options: SpeechModelV4CallOptions): Promise<SpeechModelV4Result> {
    if (typeof options.text !== 'string' || options.text.trim() === '')
      throw new RequestError(
        'text',
        `${typeof options.text === 'string' ? 'is empty or only white space' : `must be a string, got ${options.text === null ? 'null' : typeof options.text}`}: nothing to speak`,
      );
    const voice = options.voice ?? this.modelId;
    if (!voice) throw new RequestError('voice', 'no voice: give speechModel(voice) or a per-call voice');
    const container = options.outputFormat ?? 'wav';
    if (container !== 'wav' && container !== 'pcm') {
      throw new RequestError(
        'outputFormat',
        `'${container}' is not supported: voxroute writes 'wav' or 'pcm'`,
      );
    }
    const vox = voxrouteOptions(options.providerOptions);
    const format = formatOption(vox, DEFAULT_SPEECH_FORMAT);
    const warnings: SharedV4Warning[] = [];
    if (options.instructions !== undefined) warnings.push({ type: 'unsupported', feature: 'instructions' });
    const language = options.language ?? stringOption(vox, 'language');
    const stream = this.router.tts({
      text: options.text,
      voice,
      format,
      ...(language ? { language } : {}),
      ...(options.speed === undefined ? {} : { speed: options.speed }),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
      ...(this.options.route ? { route: this.options.route } : {}),
    });
    stream.result.catch(() => {});
    const parts: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of stream) {
      parts.push(chunk.data);
      bytes += chunk.data.byteLength;
    }
    const data = new Uint8Array(bytes);
    let offset = 0;
    for (const part of parts) {
      data.set(part, offset);
      offset += part.byteLength;
    }
    const result = await stream.result;
    // The router yields no audio, contacting no provider, only for text without a letter or
    // digit (an empty answer to text with words fails the attempt): a WAV of no samples would
    // pass for speech.
    if (bytes === 0)
      throw new RequestError('text', 'has nothing to speak (no letter or digit in any script): no audio');
    const mediaType =
      container === 'wav' ? 'audio/wav' : `audio/pcm;encoding=${format.encoding};rate=${format.sampleRate}`;
    return {
      audio: container === 'wav' ? encodeWav(format, data) : data,
      warnings,
      request: { body: { voice, format, textLength: options.text.length } },
      response: { timestamp: new Date(), modelId: voice, headers: { 'content-type': mediaType } },
      providerMetadata: {
        voxroute: {
          provider: result.provider,
          encoding: format.encoding,
          sampleRate: format.sampleRate,
          container,
          timeToFirstChunkMs: result.timeToFirstChunkMs,
          durationMs: result.durationMs,
        },
      },
    };
  }
}
