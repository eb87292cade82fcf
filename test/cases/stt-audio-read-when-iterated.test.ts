/**
 * A stt() stream starts when it is iterated, as every stream of a call does: with a provider
 * that answers only once all audio is in (an OpenAI-compatible batch upload), router.stt() read
 * the caller's audio to its end as soon as the call was made, so a live microphone was consumed
 * (and kept in memory) by a stream nobody iterated. The caller's audio is now first pulled at
 * the first next(). The server speaks the wire on its own (loopback, multipart read here).
 */
import { describe, expect, it } from 'vitest';
import { batchStt, pcmSignal, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const TEXT = 'a table for two at eight';

/** 1 s of speech in ten 100 ms chunks, counting the chunks pulled. */
function countedAudio() {
  const speech = pcmSignal(16_000, 16_000, 5);
  const state = { pulled: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < speech.byteLength; at += 3200) {
      state.pulled++;
      yield speech.subarray(at, at + 3200);
    }
  }
  return { speech, state, audio: chunks() };
}

/** One turn of the event loop: anything the call started on its own has had its chance to run. */
const turnOfLoop = () => new Promise((resolve) => setImmediate(resolve));

describe('stt() reads the caller audio only once the stream is iterated', () => {
  it('a batch provider: nothing is pulled before the first next(), all of it after', async () => {
    const b = await batchStt(TEXT);
    const r = router({
      providers: {
        b: { kind: 'openai-compatible', baseUrl: b.url, stt: { model: 'whisper', streaming: false } },
      },
      routes: { stt: { providers: ['b'], firstChunkTimeoutMs: false } },
    });
    const { speech, state, audio } = countedAudio();
    const stream = r.stt({ audio, format: FORMAT });
    await turnOfLoop();
    await turnOfLoop();
    expect(state.pulled).toBe(0);
    const finals: string[] = [];
    for await (const event of stream) if (event.type === 'final') finals.push(event.text);
    expect(finals).toEqual([TEXT]);
    expect(state.pulled).toBe(10);
    expect(b.uploads).toHaveLength(1);
    expect(b.uploads[0]!.equals(speech)).toBe(true);
  });
});
