/**
 * Transcript times beyond the audio sent: a Deepgram final `start: 5, duration: 0.5` after 2 s
 * of audio, then a stall, was trusted; under midStream 'replay' the router took the replay point
 * from that bogus end, so the next provider never heard the caller's audio after it. Cartesia
 * STT took a `duration` of 9999 s after 500 ms. The adapters know how much audio they sent: a
 * time past it (by more than TRANSCRIPT_TIME_TOLERANCE_MS, 250 ms) is a malformed frame, a
 * retryable ProtocolError naming the field, and the route falls back with the audio from byte 0
 * (nothing was delivered). Servers speak the wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError, type TranscriptEvent } from '../../src/index.js';
import { cartesiaSttServer } from './wire/cartesia-stt-server.js';
import { Feed, FORMAT, workingDeepgram } from './wire/listen-server.js';
import { concat, drain, pcmSignal, pieces, router, wsServer } from './wire/servers.js';

/**
 * A Deepgram that sends `raw` (a final) once it has heard `afterBytes` of audio, then answers
 * CloseStream with Metadata and a normal close (no more finals).
 */
async function deepgramSending(raw: string, afterBytes: number) {
  let heard = 0;
  return wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary) {
        heard += (data as Buffer).byteLength;
        if (heard === afterBytes) ws.send(raw);
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      ws.send(JSON.stringify({ type: 'Metadata', request_id: 'a' }));
      ws.close(1000);
    });
  });
}

const results = (start: number, duration: number, words = '[]') =>
  `{"type":"Results","is_final":true,"speech_final":true,"start":${start},"duration":${duration},` +
  `"channel":{"alternatives":[{"transcript":"first","words":${words}}]}}`;

/** 200 ms (6400 bytes) of speech, then 200 ms more once A's frame has been dealt with. */
const HEAD = pcmSignal(3200, 16_000, 1);
const TAIL = pcmSignal(3200, 16_000, 2);

describe('Deepgram Results past the audio sent (200 ms sent when the final comes)', () => {
  it.each([
    ['a final at 5 s to 5.5 s (then a stall)', results(5, 0.5), 'startMs'],
    ['an end at 451 ms', results(0, 0.451), 'endMs'],
    ['a word ending at 500 ms', results(0, 0.2, '[{"word":"first","start":0.1,"end":0.5}]'), 'words.0.endMs'],
  ])('%s: a ProtocolError naming the field, B hears the audio from byte 0', async (_name, raw, field) => {
    const a = await deepgramSending(raw, HEAD.byteLength);
    const b = await workingDeepgram();
    const r = router({
      providers: {
        a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
        b: { kind: 'deepgram', baseUrl: b.server.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
    });
    const fallbacks: Array<{ route: string; error: unknown }> = [];
    let fellBack!: () => void;
    const fallback = new Promise<void>((resolve) => (fellBack = resolve));
    r.on('fallback', (e) => {
      fallbacks.push({ route: `${e.provider}->${e.next} ${e.partialOutput}`, error: e.error });
      fellBack();
    });
    const feed = new Feed();
    feed.pushBytes(HEAD);
    const stream = r.stt({ audio: feed, format: FORMAT });
    const items: TranscriptEvent[] = [];
    let delivered!: () => void;
    const firstItem = new Promise<void>((resolve) => (delivered = resolve));
    const done = drain(
      (async function* () {
        for await (const item of stream) {
          items.push(item);
          delivered();
          yield item;
        }
      })(),
    );
    // The rest of the audio only once A's frame was dealt with (refused: a fallback; taken: an
    // event): A has sent exactly 200 ms by then.
    await Promise.race([fallback, firstItem]);
    feed.pushBytes(TAIL);
    feed.end();
    const { error } = await done;
    expect(error).toBeUndefined();
    expect(fallbacks.map((f) => f.route)).toEqual(['a->b false']);
    const e = fallbacks[0]!.error as ProtocolError;
    expect(e).toBeInstanceOf(ProtocolError);
    expect([e.provider, e.retryable, e.partialOutput, e.message]).toEqual([
      'a',
      true,
      false,
      `Unexpected Results message: ${field} is after the end of the audio sent`,
    ]);
    expect(concat(b.heard).equals(Buffer.concat([HEAD, TAIL]))).toBe(true);
    expect(items.map((i) => `${i.type}:${i.text} [${i.startMs}, ${i.endMs}]`)).toEqual([
      'final:second [0, 400]',
    ]);
    const result = await stream.result;
    expect(result.attempts.map((x) => `${x.provider}:${x.outcome}`)).toEqual(['a:failed', 'b:success']);
  });

  it('an end 250 ms past the audio sent (rounding, model frames, padding) is kept', async () => {
    const a = await deepgramSending(results(0, 0.45), HEAD.byteLength);
    const r = router({
      providers: { a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } } },
      routes: { stt: { providers: ['a'], midStream: 'replay' } },
    });
    const feed = new Feed();
    feed.pushBytes(HEAD);
    const stream = r.stt({ audio: feed, format: FORMAT });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    feed.end();
    expect(first.value).toEqual({ type: 'final', text: 'first', startMs: 0, endMs: 450, endOfSpeech: true });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });
});

describe('Cartesia STT transcript past the audio sent (500 ms)', () => {
  const SPEECH = pcmSignal(8000, 16_000, 3);

  /** A Cartesia STT server answering finalize with `transcript`, then flush_done; close -> done. */
  const cartesia = (transcript: Record<string, unknown>) =>
    cartesiaSttServer(() => ({ type: 'transcript', is_final: true, ...transcript }));

  async function run(transcript: Record<string, unknown>) {
    const a = await cartesia(transcript);
    const b = await cartesia({ text: 'second', duration: 0.5 });
    const provider = (url: string) => ({
      kind: 'cartesia' as const,
      baseUrl: url,
      apiKey: 'test-key',
      stt: { model: 'ink-whisper' },
    });
    const r = router({
      providers: { a: provider(a.server.url), b: provider(b.server.url) },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
    });
    const fallbacks: unknown[] = [];
    r.on('fallback', (e) => fallbacks.push(e.error));
    const { items, error } = await drain(r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }));
    return {
      events: items.map((e) => `${e.type}:${e.text} [${e.startMs}, ${e.endMs}]`),
      error,
      fallbacks,
      b,
    };
  }

  it.each([
    ['a duration of 9999 s', { text: 'first', duration: 9999 }, 'endMs'],
    ['a duration of 751 ms', { text: 'first', duration: 0.751 }, 'endMs'],
    [
      'a word starting at 800 ms',
      { text: 'first', duration: 0.5, words: [{ word: 'first', start: 0.8, end: 0.9 }] },
      'startMs',
    ],
  ])(
    '%s: a ProtocolError naming the field, B hears the audio from byte 0',
    async (_name, transcript, field) => {
      const { events, error, fallbacks, b } = await run(transcript);
      expect(error).toBeUndefined();
      expect(fallbacks).toHaveLength(1);
      const e = fallbacks[0] as ProtocolError;
      expect(e).toBeInstanceOf(ProtocolError);
      expect([e.provider, e.retryable, e.partialOutput, e.message]).toEqual([
        'a',
        true,
        false,
        `Unexpected STT transcript message: ${field} is after the end of the audio sent`,
      ]);
      expect(concat(b.heard).equals(SPEECH)).toBe(true);
      expect(events).toEqual(['final:second [undefined, 500]']);
    },
  );

  it('a duration of 750 ms (250 ms past the audio) is kept', async () => {
    const { events, error, fallbacks } = await run({ text: 'first', duration: 0.75 });
    expect([error, fallbacks]).toEqual([undefined, []]);
    expect(events).toEqual(['final:first [undefined, 750]']);
  });
});
