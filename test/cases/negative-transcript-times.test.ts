/**
 * Negative, inverted or non-finite transcript times: a Deepgram `Results` with `start: -5,
 * duration: -1` (or an end before its start, or a time of 1e400, which JSON reads as
 * Infinity) went to the caller as it was, and under midStream 'replay' moved the next
 * provider's transcript onto a negative timeline. Times are ms from the start of the caller's
 * audio, so such a frame is malformed: a retryable ProtocolError naming the field, and the
 * route falls back (B hears the audio from byte 0 when nothing was delivered). The same check
 * covers Cartesia's word times. Servers speak the wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/index.js';
import { cartesiaSttServer } from './wire/cartesia-stt-server.js';
import { workingDeepgram } from './wire/listen-server.js';
import { concat, drain, pcmSignal, pieces, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 500 ms of 16 kHz PCM s16le (16 000 bytes), sent in 100 ms chunks. */
const SPEECH = pcmSignal(8000, 16_000, 3);

/** A Deepgram that sends `raw` (a Results text frame) on the first audio, then waits. */
async function badDeepgram(raw: string) {
  return wsServer((ws) => {
    let sent = false;
    ws.on('message', (_data, binary) => {
      if (!binary || sent) return;
      sent = true;
      ws.send(raw);
    });
  });
}

const results = (start: string, duration: string, words = '[]') =>
  `{"type":"Results","is_final":true,"speech_final":true,"start":${start},"duration":${duration},` +
  `"channel":{"alternatives":[{"transcript":"first","words":${words}}]}}`;

async function run(a: { url: string }, b: { url: string }, kind: 'deepgram' | 'cartesia') {
  const provider = (url: string) =>
    kind === 'deepgram'
      ? { kind, baseUrl: url, apiKey: 'test-key', stt: { model: 'nova-3' } }
      : { kind, baseUrl: url, apiKey: 'test-key', stt: { model: 'ink-whisper' } };
  const r = router({
    providers: { a: provider(a.url), b: provider(b.url) },
    routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
  });
  const fallbacks: Array<{ route: string; error: unknown }> = [];
  r.on('fallback', (e) =>
    fallbacks.push({ route: `${e.provider}->${e.next} ${e.partialOutput}`, error: e.error }),
  );
  const { items, error } = await drain(r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }));
  return { events: items.map((e) => `${e.type}:${e.text} [${e.startMs}, ${e.endMs}]`), error, fallbacks };
}

function expectMalformed(error: unknown, detail: string) {
  expect(error).toBeInstanceOf(ProtocolError);
  const e = error as ProtocolError;
  expect([e.provider, e.retryable, e.partialOutput, e.message]).toEqual(['a', true, false, detail]);
}

describe('Deepgram Results with unusable times', () => {
  it.each([
    ['negative start and duration', results('-5', '-1'), 'startMs is before the start of the audio'],
    ['an end before its start', results('2', '-0.5'), 'endMs is before startMs'],
    ['a start of 1e400 (Infinity)', results('1e400', '1'), 'startMs is not a finite time'],
    [
      'a word ending before it starts',
      results('0', '0.4', '[{"word":"first","start":0.3,"end":0.1}]'),
      'words.0.endMs is before words.0.startMs',
    ],
    [
      'a negative word time',
      results('0', '0.4', '[{"word":"first","start":-0.2,"end":0.1}]'),
      'words.0.startMs is before the start of the audio',
    ],
  ])('%s: a ProtocolError, B hears the audio from byte 0', async (_name, raw, detail) => {
    const a = await badDeepgram(raw);
    const b = await workingDeepgram();
    const { events, error, fallbacks } = await run(a, b.server, 'deepgram');
    expect(error).toBeUndefined();
    expect(fallbacks.map((f) => f.route)).toEqual(['a->b false']);
    // zod refuses Infinity before the time check; either way a ProtocolError naming `start`.
    const e = fallbacks[0]!.error as ProtocolError;
    if (raw.includes('1e400')) {
      expect([e.name, e.retryable, e.partialOutput]).toEqual(['ProtocolError', true, false]);
      expect(e.message).toMatch(/^Unexpected Results message.*start/);
    } else {
      expectMalformed(e, `Unexpected Results message: ${detail}`);
    }
    expect(concat(b.heard).equals(SPEECH)).toBe(true);
    expect(events).toEqual(['final:second [0, 500]']);
  });
});

describe('Cartesia STT transcript with unusable times', () => {
  it('a negative word time: a ProtocolError, B hears the audio from byte 0', async () => {
    const a = await wsServer((ws) => {
      ws.on('message', (data, binary) => {
        if (binary || String(data) !== 'finalize') return;
        ws.send(
          JSON.stringify({
            type: 'transcript',
            text: 'first',
            is_final: true,
            duration: 0.5,
            words: [{ word: 'first', start: -1, end: 0.2 }],
          }),
        );
      });
    });
    const { server: b, heard } = await cartesiaSttServer((bytes) => ({
      type: 'transcript',
      text: 'second',
      is_final: true,
      duration: bytes / 32_000,
    }));
    const { events, error, fallbacks } = await run(a, b, 'cartesia');
    expect(error).toBeUndefined();
    expect(fallbacks.map((f) => f.route)).toEqual(['a->b false']);
    // The event's startMs is its first word's start: the event's own field is named first.
    expectMalformed(
      fallbacks[0]!.error,
      'Unexpected STT transcript message: startMs is before the start of the audio',
    );
    expect(concat(heard).equals(SPEECH)).toBe(true);
    expect(events).toEqual(['final:second [undefined, 500]']);
  });

  it('a negative duration (no words): a ProtocolError naming endMs', async () => {
    const a = await wsServer((ws) => {
      ws.on('message', (data, binary) => {
        if (binary || String(data) !== 'finalize') return;
        ws.send(JSON.stringify({ type: 'transcript', text: 'first', is_final: true, duration: -0.5 }));
      });
    });
    const b = await wsServer((ws) => {
      ws.on('message', (data, binary) => {
        if (binary) return;
        if (String(data) === 'finalize') {
          ws.send(JSON.stringify({ type: 'transcript', text: 'second', is_final: true, duration: 0.5 }));
          ws.send(JSON.stringify({ type: 'flush_done' }));
        } else if (String(data) === 'close') {
          ws.send(JSON.stringify({ type: 'done' }));
          ws.close(1000);
        }
      });
    });
    const { events, fallbacks } = await run(a, b, 'cartesia');
    expectMalformed(
      fallbacks[0]!.error,
      'Unexpected STT transcript message: endMs is before the start of the audio',
    );
    expect(events).toEqual(['final:second [undefined, 500]']);
  });
});
