import { describe, expect, it } from 'vitest';
import { estimatedTokens, remainingTokens, withPartialReply } from '../../src/routing/chat-continuation.js';
import type { ChatMessage } from '../../src/types/chat.js';

const user: ChatMessage = { role: 'user', content: 'What is 2+2?' };

describe('withPartialReply: the messages that continue a cut reply', () => {
  it('appends the partial reply as an assistant message after a user turn', () => {
    expect(withPartialReply([user], 'The answer ')).toEqual([
      user,
      { role: 'assistant', content: 'The answer ' },
    ]);
  });

  it("joins the caller's own prefill and the partial reply into one assistant message", () => {
    const messages: ChatMessage[] = [user, { role: 'assistant', content: 'The answer is' }];
    expect(withPartialReply(messages, ' four, since ')).toEqual([
      user,
      { role: 'assistant', content: 'The answer is four, since ' },
    ]);
    // The caller's array is not changed.
    expect(messages).toEqual([user, { role: 'assistant', content: 'The answer is' }]);
  });

  it('does not double the white space at the seam: a prefill ending in it loses it when the reply starts with its own', () => {
    expect(withPartialReply([user, { role: 'assistant', content: 'Well, \n' }], ' four')).toEqual([
      user,
      { role: 'assistant', content: 'Well, four' },
    ]);
    expect(withPartialReply([user, { role: 'assistant', content: 'Well, ' }], 'four ')).toEqual([
      user,
      { role: 'assistant', content: 'Well, four ' },
    ]);
  });

  it('keeps an assistant message with tool calls apart: the partial reply follows it', () => {
    const calling: ChatMessage = {
      role: 'assistant',
      content: 'On it.',
      toolCalls: [{ id: 't1', name: 'book', arguments: '{}' }],
    };
    expect(withPartialReply([user, calling], 'Booked')).toEqual([
      user,
      calling,
      { role: 'assistant', content: 'Booked' },
    ]);
  });
});

describe("remainingTokens: the caller's budget less the reply delivered", () => {
  it('counts 4 ASCII characters a token, rounded up', () => {
    expect(estimatedTokens('')).toBe(0);
    expect(estimatedTokens('The answer is ')).toBe(4); // 14 characters
    expect(estimatedTokens('four')).toBe(1);
    expect(estimatedTokens('fours')).toBe(2);
  });

  it('counts every other character (code point) as a token', () => {
    expect(estimatedTokens('答えは')).toBe(3);
    expect(estimatedTokens('café ')).toBe(2); // 4 ASCII -> 1, é -> 1
    expect(estimatedTokens('👍')).toBe(1); // one code point, two UTF-16 units
  });

  it('subtracts the estimate, never going below 1', () => {
    expect(remainingTokens(50, 'The answer is ')).toBe(46);
    expect(remainingTokens(4, 'The answer is ')).toBe(1);
    expect(remainingTokens(2, 'The answer is ')).toBe(1);
    expect(remainingTokens(10, '答えは')).toBe(7);
  });
});
