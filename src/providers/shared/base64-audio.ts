import { ProtocolError } from '../../errors/index.js';

/**
 * Decodes the standard, padded base64 (RFC 4648 §4) of an audio chunk that a provider sends
 * inside JSON (Cartesia `data`, ElevenLabs `audio`, OpenAI `speech.audio.delta.audio`,
 * SageMaker codecs; PROTOCOLS.md 1.4, 1.5, 2.3, 4.x). `''` decodes to zero bytes, as every one of
 * those protocols uses an empty or absent field for "no audio in this message".
 *
 * Strict where Node's decoder is lenient (it skips characters outside the alphabet, accepts the
 * url-safe `-` and `_` and missing padding): none of those providers documents url-safe or
 * unpadded base64, so such text means the frame is broken, not audio. Checked without a scan
 * of the text by a pattern (this runs on every audio chunk): a skipped character or a misplaced
 * `=` makes the decoded length differ from the one the text's length implies.
 *
 * Throws ProtocolError (retryable, with `provider` and `partialOutput: hadOutput`):
 * `Audio chunk is not base64 (N characters)` for a character outside the standard alphabet, a
 * misplaced `=` or a length that is not a multiple of 4. The text never appears in the message.
 */
export function decodeBase64Audio(text: string, provider: string, hadOutput: boolean): Uint8Array {
  if (text.length % 4 === 0 && text.indexOf('-') === -1 && text.indexOf('_') === -1) {
    const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
    const data = new Uint8Array(Buffer.from(text, 'base64'));
    if (data.byteLength === (text.length / 4) * 3 - padding) return data;
  }
  throw new ProtocolError(`Audio chunk is not base64 (${text.length} characters)`, {
    provider,
    partialOutput: hadOutput,
  });
}
