import type { ChatMessage } from '../types/chat.js';

/*
 * The request that continues a chat reply cut on another provider (route midStream
 * 'continue'): the caller's messages with the partial reply as a prefill, and what is left of
 * the caller's token budget. Neutral data: each provider puts it on its own wire.
 */

/**
 * The caller's messages with the partial reply `delivered` as the start of the assistant's
 * message. When the caller's messages already end with an assistant message of their own (a
 * prefill, without tool calls), the reply continues it: the two become one assistant message,
 * the prefill followed by the partial reply, since a provider continues only the last message
 * (vLLM's `continue_final_message`), or would see two turns. White space at the seam is not
 * doubled: a prefill ending in white space loses it when the reply starts with its own (a
 * provider that trims a prefill's end, such as Anthropic, saw it so and began its reply with the
 * space).
 */
export function withPartialReply(messages: ChatMessage[], delivered: string): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant' || (last.toolCalls && last.toolCalls.length > 0))
    return [...messages, { role: 'assistant', content: delivered }];
  const prefill = /^\s/.test(delivered) ? last.content.trimEnd() : last.content;
  return [...messages.slice(0, -1), { role: 'assistant', content: prefill + delivered }];
}

/** ASCII characters counted as one token by {@link estimatedTokens}. */
const ASCII_PER_TOKEN = 4;

/**
 * The caller's `maxTokens` less the tokens of the reply already delivered (`delivered`), at
 * least 1, so that the reply as a whole stays within the caller's budget. Providers report
 * usage only at the end of a reply, which a cut reply never reached, so the delivered tokens are
 * estimated (see {@link estimatedTokens}).
 */
export function remainingTokens(maxTokens: number, delivered: string): number {
  return Math.max(1, maxTokens - estimatedTokens(delivered));
}

/**
 * An estimate of the tokens of `text`: one per 4 ASCII characters (rounded up), the common
 * rule for English text and code, plus one per other character (a code point: CJK text is about
 * one token per character, accented letters and emoji take one or more). It errs on the high
 * side for English text, so a continued reply ends rather before the caller's budget than after it.
 */
export function estimatedTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / ASCII_PER_TOKEN) + other;
}
