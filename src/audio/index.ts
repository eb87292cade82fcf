/**
 * Audio: formats, whole-sample framing, encoding conversion (PCM s16le/f32le, G.711 mu-law and
 * A-law), streaming resampling, and WAV reading/writing. See docs/audio.md for the decisions.
 */
export { type AudioConverter, type AudioConverterOptions, createAudioConverter } from './audio-converter.js';
export {
  bytesPerFrame,
  bytesPerSample,
  durationMs,
  formatLabel,
  frozenFormat,
  sameFormat,
} from './format.js';
export {
  ALAW_SILENCE,
  alawDecodeSample,
  alawEncodeSample,
  MULAW_SILENCE,
  mulawDecodeSample,
  mulawEncodeSample,
} from './g711.js';
export { decodeToFloat32, encodeFromFloat32, floatToS16, s16ToFloat, transcode } from './pcm-codec.js';
export { type ReadWavOptions, readWav, type WavStream } from './read-wav.js';
export {
  preloadResampler,
  Resampler,
  type ResamplerOptions,
  type ResamplerQuality,
  SPEEX_QUALITY,
} from './resampler.js';
export { type FramingFormat, frameSamples, SampleFramer } from './sample-framer.js';
export { isDigitalSilence, silence } from './silence.js';
export { parseWavFmt } from './wav-fmt.js';
export { WavReader, type WavReadResult } from './wav-reader.js';
export { encodeWav, WAV_FORMAT_TAG, WAV_HEADER_BYTES, wavHeader } from './wav-writer.js';
