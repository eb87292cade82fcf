import { encodeWav } from '../../../audio/wav-writer.js';
import type { SageMakerSttCodec } from '../codec.js';
import { transcriptEvents } from './transcript-events.js';

const pcmAt = (sampleRate: number) => [{ encoding: 'pcm_s16le' as const, sampleRate, channels: 1 as const }];

/**
 * Codec `'wav'` for STT: one utterance sent as a WAV file, the input of Whisper-style
 * containers (the Hugging Face inference toolkit's speech-recognition pipeline and the like).
 * - Input formats: PCM s16le mono at the configured sample rate.
 * - Body: a 44-byte WAV header with the exact data size, then the audio; content type
 *   `audio/wav`, accept `application/json`. The model and language cannot travel in a WAV
 *   body: use a custom codec when the container needs them.
 * - Reply: transcript messages (see `transcriptEvents`), e.g. one `{"text": "..."}`.
 * No bidirectional input (a WAV header needs the length first): use `'raw-pcm'` for that.
 */
export const wavSttCodec: SageMakerSttCodec = {
  capability: 'stt',
  inputFormats: pcmAt,
  encode: (call, audio) => ({
    body: encodeWav(call.request.format, audio),
    contentType: 'audio/wav',
    accept: 'application/json',
  }),
  decode: transcriptEvents,
};

/**
 * Codec `'raw-pcm'` for STT: the audio as raw PCM s16le mono at the configured sample rate.
 * - Body (response streaming): every byte of the utterance; content type
 *   `application/octet-stream`, accept `application/json`.
 * - Bidirectional input: each audio chunk as a `BINARY` `PARTIAL` part as it arrives, then an
 *   empty `BINARY` `COMPLETE` part at the end of the audio.
 * - Reply: transcript messages (see `transcriptEvents`); partials arrive while audio flows.
 */
export const rawPcmSttCodec: SageMakerSttCodec = {
  capability: 'stt',
  inputFormats: pcmAt,
  encode: (_call, audio) => ({
    body: audio,
    contentType: 'application/octet-stream',
    accept: 'application/json',
  }),
  decode: transcriptEvents,
  async *input(call) {
    for await (const bytes of call.request.audio) {
      if (bytes.byteLength > 0) yield { bytes, dataType: 'BINARY', completionState: 'PARTIAL' };
    }
    yield { bytes: new Uint8Array(0), dataType: 'BINARY', completionState: 'COMPLETE' };
  },
};
