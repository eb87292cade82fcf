/**
 * Text cut inside a character outside the Basic Multilingual Plane (`'Great 😀'.slice(0, 7)`)
 * holds a lone UTF-16 surrogate, which cannot be written as UTF-8: JSON.stringify sends it as a
 * `\uD83D` escape that providers refuse (Anthropic answers 400 "The request body is not valid
 * JSON: no low surrogate in string"). A chat message or a tts() text string holding one is a
 * RequestError naming the field and the index, before any provider is contacted: the loopback
 * server (OpenAI's wire on node:http) sees no request.
 */
import { describe, expect, it } from 'vitest';
import { type ChatRequest, RequestError, type TtsRequest } from '../../src/index.js';
import { loneSurrogateAt } from '../../src/routing/lone-surrogate.js';
import { answerChat, answerPcm, drain, httpServer, router } from './wire/servers.js';

/** 'Great 😀' cut after the first half of the emoji: a lone high surrogate at index 6. */
const CUT_HIGH = 'Great 😀'.slice(0, 7);
/** The second half of the emoji alone, at index 3. */
const CUT_LOW = `Hi ${'😀'.slice(1)}!`;

async function openAiServer() {
  return httpServer((req, res) => {
    req.resume();
    if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Sure.');
    else answerPcm(res, Buffer.alloc(4800));
  });
}

function routerAt(url: string) {
  return router({
    providers: {
      a: {
        kind: 'openai-compatible',
        baseUrl: url,
        chat: { models: { fast: 'm' } },
        tts: { model: 't', voices: { agent: 'v' } },
      },
    },
    routes: { chat: { providers: ['a'] }, tts: { providers: ['a'] } },
  });
}

describe('loneSurrogateAt', () => {
  it('finds a lone high or low surrogate, and nothing in well-formed text', () => {
    expect(loneSurrogateAt(CUT_HIGH)).toBe(6);
    expect(loneSurrogateAt(CUT_LOW)).toBe(3);
    expect(loneSurrogateAt('\uDE00\uD83D')).toBe(0);
    expect(loneSurrogateAt('Great 😀 and 𝄞, ok')).toBe(-1);
    expect(loneSurrogateAt('')).toBe(-1);
  });
});

describe('text with half a character is refused before any provider is contacted', () => {
  it('chat: a message content cut inside an emoji is a RequestError at messages.N.content', async () => {
    const server = await openAiServer();
    const request: ChatRequest = {
      model: 'fast',
      messages: [
        { role: 'user', content: 'Rate the dinner.' },
        { role: 'assistant', content: CUT_HIGH },
        { role: 'user', content: 'Thanks.' },
      ],
    };
    const { error } = await drain(routerAt(server.url).chat(request));
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).field).toBe('messages.1.content');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'messages.1.content': holds half a character at index 6 (a lone UTF-16 surrogate, U+D83D: the text was cut inside an emoji or another character written as a surrogate pair), which providers refuse",
    );
    expect(server.hits).toBe(0);
  });

  it('tts: a text string with a lone low surrogate is a RequestError at text', async () => {
    const server = await openAiServer();
    const request: TtsRequest = { text: CUT_LOW, voice: 'agent' };
    const { items, error } = await drain(routerAt(server.url).tts(request));
    expect(items).toEqual([]);
    expect((error as RequestError).field).toBe('text');
    expect((error as RequestError).message).toBe(
      "Invalid request field 'text': holds half a character at index 3 (a lone UTF-16 surrogate, U+DE00: the text was cut inside an emoji or another character written as a surrogate pair), which providers refuse",
    );
    expect(server.hits).toBe(0);
  });

  it('whole emoji and astral characters reach the provider', async () => {
    const server = await openAiServer();
    const r = routerAt(server.url);
    const chat = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Great 😀 𝄞' }] }));
    expect(chat.error).toBeUndefined();
    const tts = await drain(r.tts({ text: 'Great 😀, see you.', voice: 'agent' }));
    expect(tts.error).toBeUndefined();
    expect(server.hits).toBe(2);
  });
});
