/**
 * Every constant object or array a user can import (from `voxroute` and each subpath) is frozen,
 * all the way down: code that changes one would otherwise change voxroute's defaults for the
 * whole process (DEFAULT_TTS_FORMAT is every default-format tts() chunk's `format`).
 */
import { describe, expect, it } from 'vitest';
import * as aiSdk from '../../src/ai-sdk/index.js';
import * as main from '../../src/index.js';
import * as livekit from '../../src/livekit/index.js';
import * as testing from '../../src/testing/index.js';

const entries = {
  voxroute: main,
  'voxroute/testing': testing,
  'voxroute/ai-sdk': aiSdk,
  'voxroute/livekit': livekit,
};

/** Paths under `value` (itself included) of objects and arrays that are not frozen. */
function unfrozen(value: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const out = Object.isFrozen(value) ? [] : [path];
  for (const [key, inner] of Object.entries(value)) out.push(...unfrozen(inner, `${path}.${key}`, seen));
  return out;
}

/** The exports of each entry that are objects or arrays (not functions, classes or primitives). */
const constants = Object.entries(entries).flatMap(([entry, mod]) =>
  Object.entries(mod)
    .filter(([, value]) => value !== null && typeof value === 'object')
    .map(([name, value]) => ({ name: `${entry}:${name}`, value })),
);

describe('public constant objects', () => {
  it('are the ones this test knows of (a new one is checked below too)', () => {
    expect(constants.map((c) => c.name).sort()).toEqual([
      'voxroute/ai-sdk:DEFAULT_SPEECH_FORMAT',
      'voxroute/livekit:DEFAULT_ENDPOINTING',
      'voxroute/testing:DEFAULT_MOCK_MODELS',
      'voxroute/testing:ELEVENLABS_CHUNK_LENGTH_SCHEDULE',
      'voxroute/testing:MOCK_AWS_CREDENTIALS',
      'voxroute:DEFAULT_TTS_FORMAT',
      'voxroute:METRIC_NAMES',
      'voxroute:TTFC_BUCKETS_MS',
    ]);
  });

  it.each(constants)('$name is frozen all the way down', ({ value }) => {
    expect(unfrozen(value, 'export')).toEqual([]);
  });

  it('a write to one throws TypeError and changes nothing', () => {
    const format = main.DEFAULT_TTS_FORMAT as { sampleRate: number };
    expect(() => {
      format.sampleRate = 8000;
    }).toThrow(TypeError);
    expect(main.DEFAULT_TTS_FORMAT.sampleRate).toBe(24_000);
    expect(() => (main.TTFC_BUCKETS_MS as number[]).push(1)).toThrow(TypeError);
    expect(main.TTFC_BUCKETS_MS).toHaveLength(16);
  });
});
