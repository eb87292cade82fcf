/**
 * A token of streamed text that ends between the two halves of a surrogate pair (a character
 * outside the Basic Multilingual Plane: an emoji, a rare CJK ideograph such as U+20BB7) was
 * forwarded as it came to a provider that takes streamed text: Cartesia got a frame whose
 * transcript ended in a lone `\uD842` escape, and the next frame started with the other half,
 * so the character was lost (a strict JSON parser refuses the frame; others read U+FFFD twice).
 * The half now waits for the next token. The server speaks Cartesia's WebSocket on its own
 * (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { deferred } from '../helpers/deferred.js';
import { cartesiaStreamedTextServer } from './wire/cartesia-streamed-text-server.js';
import { concat, pcmSignal, router } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 3);
const NAME = '\u{20BB7}'; // 𠮷, written as the pair \uD842\uDFB7
const FIRST = 'Okay, here we go now.';
const BEFORE = ` The name ${NAME.charAt(0)}`;
const AFTER = `${NAME.charAt(1)}野家 is fun to say.`;

describe('streamed text split inside a surrogate pair', () => {
  it('Cartesia WebSocket: every transcript frame is well-formed, the character whole in one of them', async () => {
    /** Opens once the provider has had what could be sent of the token that ends inside the character. */
    const gate = deferred();
    const { wire, transcripts, spoken } = await cartesiaStreamedTextServer(AUDIO, (text) => {
      if (text.includes('name')) gate.resolve();
    });
    const r = router({
      providers: {
        c: {
          kind: 'cartesia',
          baseUrl: wire.url,
          apiKey: 'k',
          tts: { voices: { v: 'voice-id' }, transport: 'websocket', addTimestamps: false },
        },
      },
      routes: { tts: { providers: ['c'] } },
    });
    await r.warmup();
    async function* llm(): AsyncGenerator<string> {
      yield FIRST;
      yield BEFORE;
      await gate.promise;
      yield AFTER;
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of r.tts({ text: llm(), voice: 'v' })) chunks.push(chunk.data);
    expect(
      transcripts.filter((t) =>
        /[\uD800-\uDFFF\uFFFD]/.test(t.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')),
      ),
    ).toEqual([]);
    expect(transcripts.join('')).toBe(`${FIRST}${BEFORE}${AFTER}`);
    expect(transcripts.some((t) => t.includes(NAME))).toBe(true);
    expect(spoken.length).toBe(3);
    expect(concat(chunks).equals(Buffer.concat(spoken))).toBe(true);
  });
});
