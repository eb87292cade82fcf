/**
 * Sample encodings voxroute reads and writes:
 * - `pcm_s16le`: signed 16-bit little-endian PCM (2 bytes a sample);
 * - `pcm_f32le`: 32-bit little-endian IEEE float PCM in [-1, 1] (4 bytes a sample);
 * - `mulaw`, `alaw`: G.711 companded 8-bit (1 byte a sample; ITU-T G.711).
 */
export type AudioEncoding = 'pcm_s16le' | 'pcm_f32le' | 'mulaw' | 'alaw';

/** A raw audio format: encoding, sample rate in Hz, and channels (mono only for now). */
export interface AudioFormat {
  /** Sample encoding: `pcm_s16le` (2 bytes a sample), `pcm_f32le` (4), `mulaw` or `alaw` (1). */
  encoding: AudioEncoding;
  /** Samples a second per channel, in Hz (e.g. 8000, 16000, 22050, 24000, 44100, 48000). */
  sampleRate: number;
  /** Channel count. Default: 1. */
  channels?: 1 | undefined;
}

/**
 * A piece of audio. `data` always holds whole samples in `format` (never half a sample);
 * `format` states the real encoding and rate of these bytes. `discontinuity` marks the first
 * chunk after a mid-stream switch of provider (the voice may change there).
 */
export interface AudioChunk {
  /** The audio bytes: whole samples in `format`, no container or header. */
  data: Uint8Array;
  /**
   * The real encoding and sample rate (Hz) of `data`. On chunks from tts() (and voiceTurn()'s
   * audio events) it is frozen and shared by every chunk of the call: DEFAULT_TTS_FORMAT itself
   * when the request gave no `format`, else a frozen copy of the request's `format` made when
   * the call started (field for field: it deep-equals the request's `format`, but is not the
   * caller's own object, which voxroute never freezes).
   * Writing to it throws a TypeError in strict mode; copy it (`{ ...chunk.format }`) to change it.
   */
  format: Readonly<AudioFormat>;
  /**
   * `true` on the first chunk after a mid-stream switch of provider (the voice may change there); otherwise
   * undefined.
   */
  discontinuity?: true;
}
