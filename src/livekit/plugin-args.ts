import type { Router } from 'voxroute';
import { argTypeError, checkOptionalObject } from '../internal/arg-checks.js';

/** Sample rates a router call takes, in Hz (as `format.sampleRate` of tts()/stt()). */
const MIN_RATE = 8_000;
const MAX_RATE = 192_000;

/**
 * Checks a plugin constructor's arguments from untyped code, so that a wrong one is a TypeError
 * naming it when the plugin is made (at agent start-up), not a failure of every call later.
 * `where` names the class (`voxroute.TTS`).
 *
 * @throws TypeError when `router` is not a voxroute router (no `tts`/`stt`/`chat` methods) or
 *   `options` is given but not an object.
 */
export function checkPluginArgs(where: string, router: unknown, options: unknown): void {
  const r = router as Partial<Record<keyof Router, unknown>> | null | undefined;
  if (
    typeof r !== 'object' ||
    r === null ||
    typeof r.tts !== 'function' ||
    typeof r.stt !== 'function' ||
    typeof r.chat !== 'function'
  ) {
    throw argTypeError(`${where}(router, options): router`, 'a voxroute router (createRouter())', router);
  }
  checkOptionalObject(`${where}(router, options): options`, 'an object', options);
}

/**
 * The sample rate of a plugin's audio: `rate` or `fallback`, a whole number of Hz from 8000 to
 * 192000 (what the router takes: any other rate would fail every call).
 * @throws TypeError naming `options.sampleRate` otherwise.
 */
export function pluginSampleRate(where: string, rate: unknown, fallback: number): number {
  const value = rate ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_RATE || value > MAX_RATE) {
    throw new TypeError(
      `${where}: options.sampleRate must be a whole number of Hz from ${MIN_RATE} to ${MAX_RATE}, got ${
        typeof value === 'number' ? value : typeof value
      }`,
    );
  }
  return value;
}
