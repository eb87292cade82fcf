import type { ConfigIssue } from '../../errors/index.js';

/**
 * Sample rate of OpenAI's `pcm` speech: "raw samples in 24kHz (16-bit signed, low-endian)"
 * (OpenAI text-to-speech guide; PROTOCOLS.md 2.3). The request has no field for a rate.
 */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;

/**
 * OpenAI's speech models that do not serve `stream_format: "sse"` ("sse is not supported on
 * tts-1/tts-1-hd", PROTOCOLS.md 2.3), dated snapshots (`tts-1-1106`) included.
 */
const NO_SSE_MODEL = /^tts-1(?:-hd)?(?:-\d{4})?$/;

/**
 * The issues of a `tts` section of kind `openai` that asks for what OpenAI's wire cannot
 * deliver, each with its path under the provider (`['tts', 'sampleRate']`):
 * - `sampleRate` other than 24000: OpenAI's `pcm` is always 24 kHz and the request cannot ask
 *   for another rate, so the audio would be read at the wrong rate (slowed down, pitched down)
 *   with no error;
 * - `streamFormat: "sse"` with `model` tts-1 or tts-1-hd: those models do not stream SSE, and
 *   every call would fail.
 * Kind `openai-compatible` sets both freely (servers differ). The section is read defensively:
 * fields that failed their own schema are skipped. Shared by the schema and the zod-free fast
 * path (which leaves a config with any such issue to the schema).
 */
export function openaiTtsWireIssues(tts: unknown): ConfigIssue[] {
  if (typeof tts !== 'object' || tts === null) return [];
  const { sampleRate, streamFormat, model } = tts as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  if (typeof sampleRate === 'number' && sampleRate !== OPENAI_PCM_SAMPLE_RATE) {
    issues.push({
      path: ['tts', 'sampleRate'],
      message: `must be ${OPENAI_PCM_SAMPLE_RATE} on kind "openai": OpenAI's pcm speech is always 24 kHz (leave it out; another rate is for kind "openai-compatible")`,
    });
  }
  if (streamFormat === 'sse' && typeof model === 'string' && NO_SSE_MODEL.test(model)) {
    issues.push({
      path: ['tts', 'streamFormat'],
      message: `"sse" is not served by OpenAI's model "${model}" (tts-1 and tts-1-hd stream "audio" only): use "audio" or a model such as gpt-4o-mini-tts`,
    });
  }
  return issues;
}

/**
 * {@link openaiTtsWireIssues} as JSON Schema, for the published config schema (a member of kind
 * `openai`'s `allOf`): `tts.sampleRate` 24000 only, and no `streamFormat` "sse" with a model
 * that does not serve it.
 */
export const OPENAI_TTS_WIRE_JSON_SCHEMA = {
  type: 'object',
  properties: {
    tts: {
      type: 'object',
      properties: { sampleRate: { const: OPENAI_PCM_SAMPLE_RATE } },
      not: {
        type: 'object',
        required: ['streamFormat', 'model'],
        properties: {
          streamFormat: { const: 'sse' },
          model: { type: 'string', pattern: NO_SSE_MODEL.source },
        },
      },
    },
  },
} as const;
