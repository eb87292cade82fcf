/** A letter or a digit, in any script (Unicode General Category L or N). */
const SPEAKABLE = /[\p{L}\p{N}]/u;

/**
 * True when `text` has something a TTS provider speaks: at least one letter or digit, in any
 * script ('Hi', '5', '$5', 'R&D', 'こんにちは'). Text of only white space, punctuation, symbols,
 * emoji, zero-width or format characters, or markup ('...', '—', '*', '```', '🙂', '&', U+200B)
 * has nothing to speak: providers answer it with no audio. One precompiled test that stops at
 * the first letter or digit (the first character, for ordinary text).
 */
export function speakable(text: string): boolean {
  return SPEAKABLE.test(text);
}
