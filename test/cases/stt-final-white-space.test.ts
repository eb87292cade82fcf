/**
 * White space of STT finals reaches the caller as the provider sent it. Cartesia's finals are
 * deltas of one transcript, concatenated without trimming (PROTOCOLS.md 1.6): "Hello" then
 * " world". The adapter trimmed each, so the caller's finals joined gave "Helloworld". Now the
 * text is as sent, and the router's partialText (MidStreamError) puts a space between two
 * finals only when neither has one at the seam: "Hello world" from Cartesia's " world" and from
 * Deepgram's trimmed "world" alike. Servers speak the wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { MidStreamError } from '../../src/index.js';
import { joinFinals } from '../../src/routing/stt.js';
import { drain, pcmSignal, pieces, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 500 ms of 16 kHz PCM s16le (16 000 bytes), sent in 100 ms chunks. */
const SPEECH = pcmSignal(8000, 16_000, 1);

/** A transcript message of Cartesia's STT socket: a final with one timed word. */
const final = (text: string, start: number, end: number) => ({
  type: 'transcript',
  request_id: 'a',
  text,
  is_final: true,
  duration: end,
  words: [{ word: text.trim(), start, end }],
});

/**
 * Cartesia STT: on `finalize`, the finals "Hello" and " world", then `then`: `'flush'`
 * (flush_done; `close` -> done and a normal close) or `'error'` (an error message, status 500).
 */
function cartesia(then: 'flush' | 'error') {
  return wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary) return;
      const text = String(data);
      if (text === 'finalize') {
        ws.send(JSON.stringify(final('Hello', 0, 0.2)));
        ws.send(JSON.stringify(final(' world', 0.25, 0.45)));
        if (then === 'flush') ws.send(JSON.stringify({ type: 'flush_done', request_id: 'a' }));
        else
          ws.send(
            JSON.stringify({ type: 'error', request_id: 'a', status_code: 500, message: 'overloaded' }),
          );
      } else if (text === 'close') {
        ws.send(JSON.stringify({ type: 'done', request_id: 'a' }));
        ws.close(1000);
      }
    });
  });
}

const cartesiaRouter = (url: string) =>
  router({
    providers: { a: { kind: 'cartesia', baseUrl: url, apiKey: 'test-key', stt: { model: 'ink-whisper' } } },
    routes: { stt: { providers: ['a'], strategy: 'priority' } },
  });

describe('STT final white space: the text as the provider sent it', () => {
  it("Cartesia's second final keeps its leading space: the finals concatenated read 'Hello world'", async () => {
    const a = await cartesia('flush');
    const stream = cartesiaRouter(a.url).stt({ audio: pieces(SPEECH, 3200), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([
      ['final', 'Hello', 0, 200],
      ['final', ' world', 250, 450],
    ]);
    expect(items.map((e) => e.text).join('')).toBe('Hello world');
    expect(items.map((e) => e.text).reduce(joinFinals, '')).toBe('Hello world');
  });

  it("MidStreamError.partialText after Cartesia's two finals reads 'Hello world', one space", async () => {
    const a = await cartesia('error');
    const stream = cartesiaRouter(a.url).stt({ audio: pieces(SPEECH, 3200), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(items.map((e) => e.text)).toEqual(['Hello', ' world']);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).partialText).toBe('Hello world');
  });

  it('finals are joined with one space, none added where white space is already at the seam', () => {
    expect(
      [
        ['Hello', 'world'],
        ['Hello', ' world'],
        ['Hello ', 'world'],
        ['Hello\n', 'world'],
        ['', ' world'],
        ['Hello', ''],
      ].map(([sofar, next]) => joinFinals(sofar!, next!)),
    ).toEqual(['Hello world', 'Hello world', 'Hello world', 'Hello\nworld', ' world', 'Hello']);
  });
});
