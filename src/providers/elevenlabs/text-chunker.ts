import type { WireTextMessage } from './api-types.js';

/** A sentence end: `.`, `!`, `?`, `…` or a CJK full stop, then optional closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/;

/**
 * Turns streamed text pieces (e.g. LLM tokens, which split words: `'Hel'`, `'lo wor'`, `'ld. '`)
 * into the text messages of the stream-input WebSocket, each ending at a word boundary with a
 * space as ElevenLabs asks ("text should end with a space", PROTOCOLS.md 4.3), so no word is
 * ever cut in two:
 * - `push(piece)` returns the messages that piece completes: all buffered text up to and
 *   including its last whitespace, one message per sentence (whitespace runs are kept as sent;
 *   each message ends with a space), or nothing while no word boundary has arrived;
 * - `end()` returns the rest, with a space added;
 * - a message whose text ends a sentence gets `flush: true`, so the server generates the
 *   sentence at once instead of waiting for its chunk-length schedule (120 characters by
 *   default): a short first sentence is heard without waiting for the next one (decision, see
 *   docs/providers.md).
 * Whitespace-only text is never sent (`{"text":" "}` is the keep-alive).
 */
export class TextChunker {
  private buffer = '';

  /** The messages `piece` completes, in order (zero or more). */
  push(piece: string): WireTextMessage[] {
    this.buffer += piece;
    let cut = -1;
    for (let i = this.buffer.length - 1; i >= 0; i--) {
      if (/\s/.test(this.buffer[i]!)) {
        cut = i;
        break;
      }
    }
    if (cut < 0) return [];
    const text = this.buffer.slice(0, cut + 1);
    this.buffer = this.buffer.slice(cut + 1);
    return sentences(text).flatMap(message);
  }

  /** The message of the text still buffered (zero or one). */
  end(): WireTextMessage[] {
    const text = this.buffer;
    this.buffer = '';
    return message(text);
  }
}

/** `text` cut after every sentence end that is followed by whitespace (the whitespace stays with the sentence). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?…。！？]["'”’)\]]*\s+)(?=\S)/);
}

function message(raw: string): WireTextMessage[] {
  const trimmed = raw.trimEnd();
  if (trimmed.trim() === '') return [];
  const text = /\s$/.test(raw) ? raw.replace(/\s+$/, (ws) => (ws.endsWith(' ') ? ws : `${ws} `)) : `${raw} `;
  return SENTENCE_END.test(trimmed) ? [{ text, flush: true }] : [{ text }];
}
