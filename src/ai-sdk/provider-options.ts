import type { JSONObject } from '@ai-sdk/provider';
import type { AudioEncoding, AudioFormat } from 'voxroute';
import { RequestError } from 'voxroute';

const ENCODINGS: readonly AudioEncoding[] = ['pcm_s16le', 'pcm_f32le', 'mulaw', 'alaw'];

/** The `voxroute` entry of an AI SDK call's `providerOptions` (an empty object when absent). */
export function voxrouteOptions(providerOptions: Record<string, JSONObject> | undefined): JSONObject {
  return providerOptions?.voxroute ?? {};
}

/**
 * An audio format from provider options `{ encoding?, sampleRate? }`: `encoding` one of
 * voxroute's encodings (default `fallback.encoding`), `sampleRate` a positive integer in Hz
 * (default `fallback.sampleRate`; required when there is no fallback).
 *
 * @throws RequestError naming `providerOptions.voxroute.<key>` when a value is wrong or missing.
 */
export function formatOption(options: JSONObject, fallback: Partial<AudioFormat>): AudioFormat {
  const encoding = options.encoding ?? fallback.encoding;
  if (typeof encoding !== 'string' || !ENCODINGS.includes(encoding as AudioEncoding)) {
    throw new RequestError(
      'providerOptions.voxroute.encoding',
      `must be one of ${ENCODINGS.join(', ')}, got ${JSON.stringify(encoding ?? null)}`,
    );
  }
  const sampleRate = options.sampleRate ?? fallback.sampleRate;
  if (typeof sampleRate !== 'number' || !Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RequestError(
      'providerOptions.voxroute.sampleRate',
      `must be a positive integer (Hz), got ${JSON.stringify(sampleRate ?? null)}`,
    );
  }
  return { encoding: encoding as AudioEncoding, sampleRate, channels: 1 };
}

/** An optional string option, e.g. `language`. @throws RequestError when present and not a string. */
export function stringOption(options: JSONObject, key: string): string | undefined {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new RequestError(
      `providerOptions.voxroute.${key}`,
      `must be a string, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
