import type * as alawmulawModule from 'alawmulaw';
import { lazy } from '../internal/lazy.js';
import { requirePackage } from '../internal/require-package.js';

/**
 * ITU-T G.711 mu-law and A-law codecs for single samples, on top of the `alawmulaw` package
 * (its `encodeSample`/`decodeSample`), with the results normalised: codes are always
 * 0..255 and decoded values are plain 16-bit integers (never -0).
 *
 * Levels (ITU-T G.711 tables, left-justified to 16 bits as in ITU-T G.191):
 * - mu-law decodes to +-32124 at most; 0xFF and 0x7F both decode to 0; 0x00 is -32124.
 * - A-law decodes to +-32256 at most; it has no zero: 0xD5 is +8 and 0x55 is -8.
 * - Encoding saturates: 32767 -> 0x80 (mu-law), -32768 -> 0x00 (mu-law).
 * - Encoding is bit-exact with ITU-T G.191's reference encoders (`ulaw_compress`,
 *   `alaw_compress` in its g711.c) on all 65,536 inputs: G.191 takes a negative sample's
 *   magnitude as its one's complement (`~x`, i.e. -x - 1) while the package takes -x, which puts
 *   127 negative inputs per law that sit exactly on a decision level one code off
 *   (A-law -31744: G.191 0x2B). {@link toG191Magnitude} moves such a sample by one first.
 */

/** The mu-law code of silence (0, positive zero): 0xFF. A 0x00 byte is full-scale negative. */
export const MULAW_SILENCE = 0xff;

/** The A-law code of silence (the smallest positive level, +8): 0xD5 (ITU-T G.711). */
export const ALAW_SILENCE = 0xd5;

interface Codecs {
  mulaw: typeof alawmulawModule.mulaw;
  alaw: typeof alawmulawModule.alaw;
}

/**
 * The package is a UMD bundle marked `__esModule`: Node's ESM loader exposes it only as
 * `default`, while `require` and bundlers' CommonJS interop expose the named exports. Accept both.
 */
function pickCodecs(mod: unknown): Codecs {
  const named = mod as Partial<Codecs> & { default?: Codecs };
  return named.mulaw && named.alaw ? (named as Codecs) : named.default!;
}

/**
 * The codecs, loaded with `require` on first use (the first mu-law or A-law conversion builds
 * its lookup tables through these functions) rather than when voxroute is imported.
 */
const codecs = lazy(() => pickCodecs(requirePackage<unknown>('alawmulaw')));

/**
 * The sample whose magnitude, as the package takes it (-x), is G.191's magnitude of `sample`
 * (~x = -x - 1): a negative sample moves one step towards zero; -1 stays (G.191 codes it as the
 * smallest negative level, as the package does).
 */
function toG191Magnitude(sample: number): number {
  return sample < -1 ? sample + 1 : sample;
}

/** mu-law code (0..255) of a signed 16-bit sample (-32768..32767), as ITU-T G.191 encodes it. */
export function mulawEncodeSample(sample: number): number {
  return codecs().mulaw.encodeSample(toG191Magnitude(sample)) & 0xff;
}

/** Signed 16-bit value of a mu-law code (0..255): -32124..32124. */
export function mulawDecodeSample(code: number): number {
  return codecs().mulaw.decodeSample(code & 0xff) | 0;
}

/** A-law code (0..255) of a signed 16-bit sample (-32768..32767), as ITU-T G.191 encodes it. */
export function alawEncodeSample(sample: number): number {
  return codecs().alaw.encodeSample(toG191Magnitude(sample)) & 0xff;
}

/** Signed 16-bit value of an A-law code (0..255): -32256..32256, never 0. */
export function alawDecodeSample(code: number): number {
  return codecs().alaw.decodeSample(code & 0xff) | 0;
}
