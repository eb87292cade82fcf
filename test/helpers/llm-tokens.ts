/**
 * An LLM's tokens: a first sentence (one clause: "Sure, " is under the 8-character minimum),
 * then a second. Shared by the streamed-text TTS tests (./streamed-tts.ts) and
 * bench/tts-tokens.ts; this module imports nothing, so a bench script can load it.
 */
export const LLM_TOKENS: readonly string[] = [
  'Sure',
  ',',
  ' your',
  ' table',
  ' is',
  ' booked',
  ' for',
  ' eight',
  '.',
  ' See',
  ' you',
  ' then',
  '.',
];
