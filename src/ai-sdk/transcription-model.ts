import type {
  TranscriptionModelV4,
  TranscriptionModelV4CallOptions,
  TranscriptionModelV4Result,
} from '@ai-sdk/provider';
import type { AudioFormat, TranscriptEvent } from 'voxroute';
import { durationMs, ProtocolError, RequestError, readWav } from 'voxroute';
import { isWavHeader } from '../audio/wav-sniff.js';
import { formatOption, stringOption, voxrouteOptions } from './provider-options.js';
import { RouteModel } from './route-model.js';

/** Options of {@link createVoxroute}'s `transcriptionModel()`. */
export interface VoxrouteTranscriptionOptions {
  /** Route of the router config to call; overrides the model id. Default: the model id, else `'stt'`. */
  route?: string | undefined;
}

/**
 * A voxroute STT route as an AI SDK transcription model (specification v4), for `transcribe()`.
 * STT requests name no model, so `modelId` is the route (default `'stt'`).
 *
 * Audio: a WAV file (RIFF/WAVE, mono, any of voxroute's encodings), or raw samples when
 * `providerOptions.voxroute.sampleRate` (Hz) is given, with `encoding` (default `'pcm_s16le'`).
 * `providerOptions.voxroute.language` (BCP 47) passes through. The result's `text` joins the
 * final transcripts with spaces; each final is a segment (seconds from the audio's start).
 *
 * @throws RequestError (field `audio`) for audio that is neither WAV nor described by provider
 *   options, or a WAV file voxroute cannot read (stereo, 8-bit, a cut header: not ProtocolError),
 *   before any provider is contacted; the router's errors after it fell back across the route.
 */
export class VoxrouteTranscriptionModel
  extends RouteModel<VoxrouteTranscriptionOptions>
  implements TranscriptionModelV4
{
  readonly provider = 'voxroute.transcription';

  async doGenerate(options: TranscriptionModelV4CallOptions): Promise<TranscriptionModelV4Result> {
    const bytes = typeof options.audio === 'string' ? Buffer.from(options.audio, 'base64') : options.audio;
    const vox = voxrouteOptions(options.providerOptions);
    const { format, data } = await decodeAudio(bytes, vox, options.mediaType);
    const language = stringOption(vox, 'language');
    const stream = this.router.stt({
      audio: (async function* () {
        yield data;
      })(),
      format,
      ...(language ? { language } : {}),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
      route: this.options.route ?? this.modelId,
    });
    stream.result.catch(() => {});
    const finals: TranscriptEvent[] = [];
    // End-of-speech markers (finals with empty text) are not segments.
    for await (const event of stream) if (event.type === 'final' && event.text !== '') finals.push(event);
    const result = await stream.result;
    const seconds = durationMs(format, data.byteLength) / 1000;
    const words = finals.flatMap((f) => f.words ?? []);
    return {
      text: finals
        .map((f) => f.text.trim())
        .filter(Boolean)
        .join(' '),
      segments: finals.map((f) => ({
        text: f.text,
        startSecond: (f.startMs ?? 0) / 1000,
        endSecond: (f.endMs ?? seconds * 1000) / 1000,
      })),
      ...(words.length
        ? {
            words: words.map((w) => ({
              text: w.word,
              startSecond: (w.startMs ?? 0) / 1000,
              endSecond: (w.endMs ?? w.startMs ?? 0) / 1000,
            })),
          }
        : {}),
      language,
      durationInSeconds: seconds,
      warnings: options.timestampGranularities?.length
        ? [
            {
              type: 'unsupported',
              feature: 'timestampGranularities',
              details: 'word times come when the provider gives them',
            },
          ]
        : [],
      response: { timestamp: new Date(), modelId: this.modelId },
      providerMetadata: {
        voxroute: {
          provider: result.provider,
          timeToFirstChunkMs: result.timeToFirstChunkMs,
          durationMs: result.durationMs,
        },
      },
    };
  }
}

/** The samples and their format: from the WAV header, or from provider options for raw audio. */
async function decodeAudio(
  bytes: Uint8Array,
  vox: Parameters<typeof formatOption>[0],
  mediaType: string,
): Promise<{ format: AudioFormat; data: Uint8Array }> {
  if (isWavHeader(bytes)) {
    try {
      const wav = readWav(
        (async function* () {
          yield bytes;
        })(),
      );
      const format = await wav.format;
      const parts: Uint8Array[] = [];
      for await (const part of wav.data) parts.push(part);
      return { format, data: parts.length === 1 ? parts[0]! : Buffer.concat(parts) };
    } catch (error) {
      // The caller's file, not a provider's frame: a RequestError, not readWav's ProtocolError.
      if (!ProtocolError.isInstance(error)) throw error;
      throw new RequestError('audio', `a WAV file voxroute cannot read: ${error.message}`, { cause: error });
    }
  }
  if (vox.sampleRate === undefined) {
    // The AI SDK labels bytes it cannot identify 'audio/wav': name the media type only when it says more.
    const given =
      mediaType && mediaType !== 'audio/wav' ? ` (media type ${mediaType})` : ' (no RIFF/WAVE header)';
    throw new RequestError(
      'audio',
      `not a WAV file${given}: send WAV, or raw samples with providerOptions.voxroute.sampleRate (and encoding)`,
    );
  }
  return { format: formatOption(vox, { encoding: 'pcm_s16le' }), data: bytes };
}
