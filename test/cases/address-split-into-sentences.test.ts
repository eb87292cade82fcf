/**
 * A web or email address in the text to speak was cut into two TTS requests: streamed text
 * whose token ended right after a full stop or a question mark inside it ("https://www." then
 * "acme", "acme.io/help?" then "topic", "support@acme." then "com", as LLM tokenizers split
 * them) ended a sentence there, and the sentence segmenter broke after the `?` of a query string
 * in a text given whole. The listener heard "See https colon slash slash acme dot io slash
 * help?" as a question, then "topic equals billing..." as a new sentence, each request read by
 * the provider without the rest of the address. Inside such an address only white space ends a
 * sentence now. The server speaks OpenAI's speech wire on its own (loopback node:http).
 */
import { describe, expect, it } from 'vitest';
import { concat, pcmSignal, recordingSpeechServer, router } from './wire/servers.js';

const AUDIO = pcmSignal(2_400, 24_000, 4);

/** A router whose TTS route is an OpenAI-compatible speech server recording each request's input. */
async function speech() {
  const { wire, inputs } = await recordingSpeechServer(AUDIO);
  const r = router({
    providers: { a: { kind: 'openai-compatible', baseUrl: `${wire.url}/v1`, tts: { voices: { v: 'x' } } } },
    routes: { tts: { providers: ['a'] } },
  });
  return { r, inputs };
}

async function* tokens(parts: readonly string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

describe('an address is not cut into sentences', () => {
  it('streamed text: a token ending at a full stop or "?" inside a web or email address', async () => {
    const { r, inputs } = await speech();
    const parts = [
      'See',
      ' https',
      '://',
      'www',
      '.',
      'acme',
      '.io',
      '/help',
      '?',
      'topic',
      '=billing',
      ' for',
      ' the',
      ' details',
      '.',
      ' Or',
      ' write',
      ' to',
      ' support',
      '@',
      'acme',
      '.',
      'com',
      ' any',
      ' time',
      '.',
    ];
    const chunks: Uint8Array[] = [];
    for await (const chunk of r.tts({ text: tokens(parts), voice: 'v' })) chunks.push(chunk.data);
    expect(inputs).toEqual([
      'See https://www.acme.io/help?topic=billing for the details.',
      'Or write to support@acme.com any time.',
    ]);
    expect(concat(chunks).equals(concat([AUDIO, AUDIO]))).toBe(true);
  });

  it('a text given whole: no break after the "?" of a query string', async () => {
    const { r, inputs } = await speech();
    const text = 'See https://acme.io/help?topic=billing for the details. Then call us.';
    for await (const _chunk of r.tts({ text, voice: 'v' })) {
      // play it
    }
    expect(inputs).toEqual(['See https://acme.io/help?topic=billing for the details.', 'Then call us.']);
  });

  it('an address at the end of a sentence still ends it once white space follows', async () => {
    const { r, inputs } = await speech();
    const parts = [
      'Did',
      ' you',
      ' try',
      ' https',
      '://',
      'acme',
      '.io',
      '/help',
      '?',
      ' Then',
      ' call',
      ' us',
      '.',
    ];
    for await (const _chunk of r.tts({ text: tokens(parts), voice: 'v' })) {
      // play it
    }
    expect(inputs).toEqual(['Did you try https://acme.io/help?', 'Then call us.']);
  });
});
