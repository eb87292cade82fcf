/**
 * An end-of-speech marker (a final with empty text and no times, from Deepgram's UtteranceEnd)
 * says nothing about where words ended. When the provider then fails mid-stream under
 * midStream 'replay', the next provider must hear the audio from the end of the last final
 * with words, not give up because the last event delivered had no `endMs`. Servers speak
 * Deepgram's wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../src/index.js';
import { Feed, FORMAT, SECOND, workingDeepgram } from './wire/listen-server.js';
import { concat, router, wsServer } from './wire/servers.js';

/** A Deepgram that, after 500 ms of audio, sends a final over 0-300 ms and UtteranceEnd; at 1 s it drops the connection. */
async function deepgramDroppingAfterUtteranceEnd() {
  const server = await wsServer((ws) => {
    let bytes = 0;
    let spoke = false;
    ws.on('message', (data, binary) => {
      if (!binary) return;
      bytes += (data as Buffer).byteLength;
      if (!spoke && bytes >= SECOND / 2) {
        spoke = true;
        ws.send(
          JSON.stringify({
            type: 'Results',
            is_final: true,
            speech_final: false,
            start: 0,
            duration: 0.3,
            channel: { alternatives: [{ transcript: 'first', confidence: 1 }] },
          }),
        );
        ws.send(JSON.stringify({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: 0.28 }));
      }
      if (bytes >= SECOND) ws.terminate();
    });
  });
  return server.url;
}

describe('stt: a mid-stream failure after an end-of-speech marker', () => {
  it("replays from the end of the last final with words (midStream 'replay')", async () => {
    const a = await deepgramDroppingAfterUtteranceEnd();
    const b = await workingDeepgram();
    const r = router({
      providers: {
        a: {
          kind: 'deepgram',
          baseUrl: a,
          apiKey: 'test-key',
          stt: { model: 'nova-3', utteranceEndMs: 1000 },
        },
        b: { kind: 'deepgram', baseUrl: b.server.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
    });
    const feed = new Feed();
    feed.push(500, 1);
    const stream = r.stt({ audio: feed, format: FORMAT });
    const events: TranscriptEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.endOfSpeech) {
        feed.push(500, 2);
        feed.end();
      }
    }
    expect(events).toEqual([
      { type: 'final', text: 'first', startMs: 0, endMs: 300, confidence: 1 },
      { type: 'final', text: '', endOfSpeech: true },
      {
        type: 'final',
        text: 'second',
        startMs: 300,
        endMs: 1000,
        words: [{ word: 'second', startMs: 300, endMs: 1000 }],
      },
    ]);
    // B heard the audio from 300 ms on: 200 ms of the first push, then all of the second.
    const heard = concat(b.heard);
    expect(heard.byteLength).toBe(0.7 * SECOND);
    expect(heard.subarray(0, 0.2 * SECOND).every((v) => v === 1)).toBe(true);
    expect(heard.subarray(0.2 * SECOND).every((v) => v === 2)).toBe(true);
    expect((await stream.result).provider).toBe('b');
  });
});
