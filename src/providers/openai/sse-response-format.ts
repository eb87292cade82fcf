import type { ConfigIssue } from '../../errors/index.js';

/**
 * The issue of a `tts` section (kinds `openai` and `openai-compatible`) that sets
 * `responseFormat: "wav"` with `streamFormat: "sse"`, at `['tts', 'responseFormat']`: in SSE mode
 * the adapter always asks for `response_format: "pcm"` (the base64 `speech.audio.delta` payloads
 * of raw samples are the only ones that can be joined delta by delta; PROTOCOLS.md 2.3, and
 * speaches sends PCM in SSE mode whatever is asked, 6.3), so "wav" would be ignored without a
 * word. Both kinds: it is the adapter, not the server, that would drop it. The section is read
 * defensively (a field that failed its own schema is skipped). Shared by the schemas and the
 * zod-free fast path (which leaves such a config to the schema).
 */
export function sseResponseFormatIssues(tts: unknown): ConfigIssue[] {
  if (typeof tts !== 'object' || tts === null) return [];
  const { responseFormat, streamFormat } = tts as Record<string, unknown>;
  if (streamFormat !== 'sse' || responseFormat !== 'wav') return [];
  return [
    {
      path: ['tts', 'responseFormat'],
      message:
        '"wav" is not used with streamFormat "sse": SSE audio deltas are always asked for as "pcm" (raw PCM s16le); leave responseFormat out, or use streamFormat "audio" for WAV',
    },
  ];
}

/**
 * {@link sseResponseFormatIssues} as JSON Schema, for the published config schema (a member of
 * both kinds' `allOf`): no `tts` with `streamFormat` "sse" and `responseFormat` "wav".
 */
export const SSE_RESPONSE_FORMAT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    tts: {
      type: 'object',
      not: {
        type: 'object',
        required: ['streamFormat', 'responseFormat'],
        properties: { streamFormat: { const: 'sse' }, responseFormat: { const: 'wav' } },
      },
    },
  },
} as const;
