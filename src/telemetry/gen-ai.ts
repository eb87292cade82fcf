import type { Capability } from '../types/route-result.js';

/**
 * `gen_ai.operation.name` of each capability, after the OpenTelemetry semantic conventions for
 * generative AI (gen-ai-spans.md, "gen_ai.operation.name"): `chat` is a well-known value; the
 * conventions have none for speech, so text to speech and speech to text use their own values,
 * as the conventions allow.
 */
export const GEN_AI_OPERATION: Readonly<Record<Capability, string>> = {
  chat: 'chat',
  tts: 'text_to_speech',
  stt: 'speech_to_text',
};

/** The capability of a `voxroute.capability` attribute value, if it is one. */
export function operationOf(capability: unknown): string | undefined {
  return typeof capability === 'string' && Object.hasOwn(GEN_AI_OPERATION, capability)
    ? GEN_AI_OPERATION[capability as Capability]
    : undefined;
}
