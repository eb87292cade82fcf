import { describe, expect, it, onTestFinished } from 'vitest';
import { type AudioChunk, createRouter, type RouteConfig, type RouterOptions } from '../../src/index.js';
import { createElevenLabsMock, startMockServer } from '../../src/testing/index.js';
import { LLM_TOKENS, PCM24, startWithBackup } from '../helpers/streamed-tts.js';
import { sonicPrimary, until } from '../providers/cartesia/helpers.js';
import { FakeClock } from '../transport/fake-clock.js';

/** Yields token i only once `arrived(prefix)` holds for the tokens before it: one token per read, whatever the scheduling. */
async function* paced(arrived: (prefix: string) => boolean): AsyncGenerator<string> {
  for (let i = 0; i < LLM_TOKENS.length; i++) {
    const prefix = LLM_TOKENS.slice(0, i).join('');
    await until(() => arrived(prefix), `the provider received ${JSON.stringify(prefix)}`);
    yield LLM_TOKENS[i]!;
  }
}

type CartesiaWire = { context_id?: string; transcript?: string; continue?: boolean; flush?: boolean };

async function cartesiaSetup(route: Partial<RouteConfig> = {}, options: RouterOptions = {}) {
  const { router, primary: sonic, ec2 } = await startWithBackup(sonicPrimary(), route, options);
  return { router, sonic, ec2 };
}

describe('LLM tokens forwarded into a Cartesia context', () => {
  it('sends each token as it arrives with continue: true, a flush where the router finds a clause end, then ends the input', async () => {
    const { router, sonic, ec2 } = await cartesiaSetup();
    const transcripts = () =>
      ((sonic.sockets[0]?.messages ?? []) as CartesiaWire[]).map((m) => m.transcript ?? '').join('');
    const stream = router.tts({ text: paced((prefix) => transcripts() === prefix), voice: 'agent' });
    const chunks: AudioChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect((await stream.result).provider).toBe('sonic');
    expect(sonic.sockets).toHaveLength(1);
    const sent = sonic.sockets[0]!.messages as CartesiaWire[];
    expect(new Set(sent.map((m) => m.context_id)).size).toBe(1);
    // The sentence ends at "eight." (a word, then a full stop): the flush (a separate message,
    // PROTOCOLS.md 1.5) goes right after that token, before " See" arrives. The last clause is
    // not flushed: the end of input generates it.
    expect(sent.map((m) => [m.transcript, m.continue, m.flush])).toEqual([
      ['Sure', true, undefined],
      [',', true, undefined],
      [' your', true, undefined],
      [' table', true, undefined],
      [' is', true, undefined],
      [' booked', true, undefined],
      [' for', true, undefined],
      [' eight', true, undefined],
      ['.', true, undefined],
      ['', true, true],
      [' See', true, undefined],
      [' you', true, undefined],
      [' then', true, undefined],
      ['.', true, undefined],
      ['', false, undefined],
    ]);
    expect(ec2.requests).toHaveLength(0);
    expect(chunks.length).toBeGreaterThan(0);
  });

  it('a slow token source trips no first-chunk deadline and stays out of the TTFC sample: the clocks start at the first clause end', async () => {
    // The router's clock moves only when the test says: the 400 ms the LLM thinks, nothing else.
    const clock = new FakeClock();
    const { router, sonic, ec2 } = await cartesiaSetup({ firstChunkTimeoutMs: 150 }, { clock });
    let release!: () => void;
    const thinking = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The LLM gives a few words, then thinks (400 ms on the router's clock), then ends the clause.
    async function* slow(): AsyncGenerator<string> {
      yield 'Sure';
      yield ', your table';
      await thinking;
      yield ' is booked. See';
      yield ' you then.';
    }
    const firstChunkAt: number[] = [];
    router.on('first-chunk', (e) => firstChunkAt.push(e.timeToFirstChunkMs));
    const stream = router.tts({ text: slow(), voice: 'agent', format: PCM24 });
    const chunks: AudioChunk[] = [];
    const reading = (async () => {
      for await (const c of stream) chunks.push(c);
    })();
    await until(
      () => (sonic.sockets[0]?.messages.length ?? 0) > 0,
      'the words before the pause reached Cartesia',
    );
    clock.advance(400);
    release();
    await reading;
    const result = await stream.result;
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([['sonic', 'success']]);
    expect(ec2.requests).toHaveLength(0);
    // The words before the pause reached Cartesia before it (read while the socket opened, they go together).
    expect((sonic.sockets[0]!.messages as CartesiaWire[])[0]!.transcript).toBe('Sure, your table');
    // The sample counts from the first clause end, not from the request's start.
    expect(firstChunkAt).toHaveLength(1);
    expect(firstChunkAt[0]!).toBeLessThan(150);
    expect(result.attempts[0]!.timeToFirstChunkMs!).toBeLessThan(150);
    const stats = router.stats().providers.find((p) => p.provider === 'sonic')!;
    expect(stats.ewmaMs!).toBeLessThan(150);
  });
});

type ElevenWire = { text?: string; flush?: boolean };

describe('LLM tokens forwarded into the ElevenLabs stream-input socket', () => {
  it('sends the words as they complete, flush: true where the router finds a clause end, then the end of input', async () => {
    const KEY = 'xi-router-key-tokens-1';
    const eleven = createElevenLabsMock({ apiKey: KEY });
    const server = await startMockServer({ provider: eleven });
    const router = createRouter({
      providers: {
        eleven: {
          kind: 'elevenlabs',
          baseUrl: server.url,
          apiKey: KEY,
          tts: { transport: 'websocket', voices: { agent: 'voice-el' } },
        },
      },
      routes: { tts: { providers: ['eleven'], strategy: 'priority' } },
    });
    onTestFinished(async () => {
      await router.close();
      await server.close();
    });
    const texts = () =>
      ((eleven.sockets[0]?.messages ?? []) as ElevenWire[])
        .slice(1)
        .map((m) => m.text ?? '')
        .join('');
    // A word is sent once the whitespace after it arrived: wait for the prefix up to its last whitespace.
    const stream = router.tts({
      text: paced((prefix) => texts() === prefix.slice(0, prefix.search(/\s\S*$/) + 1)),
      voice: 'agent',
      format: PCM24,
    });
    for await (const _ of stream) {
    }
    const sent = eleven.sockets[0]!.messages as ElevenWire[];
    expect(sent.map((m) => [m.text, m.flush])).toEqual([
      [' ', undefined],
      ['Sure, ', undefined],
      ['your ', undefined],
      ['table ', undefined],
      ['is ', undefined],
      ['booked ', undefined],
      ['for ', undefined],
      ['eight. ', true],
      ['See ', undefined],
      ['you ', undefined],
      // The rest of the text, at its end (a sentence end: flushed, as for any streamed text).
      ['then. ', true],
      ['', undefined],
    ]);
  });
});
