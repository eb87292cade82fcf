/** Model id of the deterministic responder, as listed by `GET /v1/models`. */
export const ECHO_MODEL_ID = 'voxroute-echo';

/** Reply to any mention of "country" (the JFK demo sentence). */
export const COUNTRY_REPLY =
  'You asked what you can do for your country. Start by voting, volunteering, and helping a neighbour.';

/** Reply when there is no user text to answer. */
export const EMPTY_REPLY = 'I did not hear anything. Could you say that again?';

/**
 * The deterministic reply of the `voxroute-echo` model to the last user message `text`:
 * {@link COUNTRY_REPLY} when it mentions "country" (any case), {@link EMPTY_REPLY} when it is
 * blank, and otherwise `I heard: <text>. How can I help?` with the text's whitespace collapsed
 * and its trailing punctuation dropped.
 */
export function replyTo(text: string): string {
  const said = text.replace(/\s+/g, ' ').trim();
  if (said === '') return EMPTY_REPLY;
  if (/country/i.test(said)) return COUNTRY_REPLY;
  const core = said.replace(/[\s.!?,;:]+$/u, '');
  return `I heard: ${core === '' ? said : core}. How can I help?`;
}

/**
 * Splits `reply` into the content pieces of a word-by-word stream: the first word, then each
 * following word with its leading space, so the pieces concatenate back to `reply`.
 */
export function streamPieces(reply: string): string[] {
  return reply.match(/\s*\S+/g) ?? [];
}

/** A rough token count for `usage`: the number of whitespace-separated words in `text`. */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}
