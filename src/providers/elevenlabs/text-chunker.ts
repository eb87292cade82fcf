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

  /**
   * The messages of a router piece (tokens with clause ends marked by the router, whose rule
   * replaces the sentence-end one): without `clauseEnd`, the buffered text up to its last
   * whitespace as one message; with it, all the buffered text as one message with
   * `flush: true`, or `{"text":" ","flush":true}` when it was all sent already.
   */
  pushPiece(piece: string, clauseEnd: boolean): WireTextMessage[] {
    this.buffer += piece;
    if (clauseEnd) {
      const text = spaced(this.buffer);
      this.buffer = '';
      return [{ text: text ?? ' ', flush: true }];
    }
    const cut = this.buffer.search(/\s\S*$/);
    if (cut < 0) return [];
    const text = spaced(this.buffer.slice(0, cut + 1));
    this.buffer = this.buffer.slice(cut + 1);
    return text === undefined ? [] : [{ text }];
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
  const text = spaced(raw);
  if (text === undefined) return [];
  return SENTENCE_END.test(raw.trimEnd()) ? [{ text, flush: true }] : [{ text }];
}

/** `raw` ending with a space, as ElevenLabs asks; undefined when it is only whitespace (never sent). */
function spaced(raw: string): string | undefined {
  if (raw.trim() === '') return undefined;
  return /\s$/.test(raw) ? raw.replace(/\s+$/, (ws) => (ws.endsWith(' ') ? ws : `${ws} `)) : `${raw} `;
}
