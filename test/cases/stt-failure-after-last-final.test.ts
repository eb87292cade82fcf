/**
 * A failure after the whole transcript: the caller's audio had ended and every byte of it was
 * covered by a final when the provider failed (a close 1011 after its last final, or a dropped
 * socket while audio was pending before that final). Under midStream 'replay' there is nothing
 * for another provider to hear: the stream ends with the finals delivered, the next provider is
 * not contacted, and no outcome (success or latency) is recorded for it. Before, the next
 * provider was "started" on no audio and recorded as a success it never earned (a half-open
 * breaker would close on it). The failing provider is still charged. Servers speak the wire on
 * their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../src/index.js';
import { FORMAT, SECOND } from './wire/listen-server.js';
import { pcmSignal, router, wsServer } from './wire/servers.js';

/** A Deepgram that answers CloseStream with a final over all it heard, then closes with `close`. */
async function deepgramFailingAfterFinal(close: { code: number; reason: string }) {
  let heard = 0;
  let connections = 0;
  const server = await wsServer((ws) => {
    connections++;
    ws.on('message', (data, binary) => {
      if (binary) {
        heard += (data as Buffer).byteLength;
        return;
      }
      if ((JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      ws.send(
        JSON.stringify({
          type: 'Results',
          is_final: true,
          speech_final: true,
          start: 0,
          duration: heard / SECOND,
          channel: { alternatives: [{ transcript: 'all of it', confidence: 1 }] },
        }),
      );
      ws.close(close.code, close.reason);
    });
  });
  return { url: server.url, connections: () => connections };
}

describe('stt: a failure after the last final of ended audio', () => {
  it.each([
    ['a close 1011 after the last final', { code: 1011, reason: 'internal server error' }],
    ['a close 1013 (try again later) after the last final', { code: 1013, reason: 'try again later' }],
  ])('%s: the stream ends with the transcript, B is never contacted', async (_name, close) => {
    const a = await deepgramFailingAfterFinal(close);
    const b = await deepgramFailingAfterFinal({ code: 1000, reason: '' });
    const r = router({
      providers: {
        a: { kind: 'deepgram', baseUrl: a.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
        b: { kind: 'deepgram', baseUrl: b.url, apiKey: 'test-key', stt: { model: 'nova-3' } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
    });
    const seen: string[] = [];
    r.on('fallback', (e) => seen.push(`fallback ${e.provider}->${e.next}`));
    r.on('attempt', (e) => seen.push(`attempt ${e.provider}`));
    r.on('error', (e) => seen.push(`error ${e.provider} ${e.partialOutput}`));
    const audio = pcmSignal(SECOND / 2 / 2, 16_000, 3); // 500 ms
    const stream = r.stt({
      audio: (async function* () {
        yield audio;
      })(),
      format: FORMAT,
    });
    const items: TranscriptEvent[] = [];
    for await (const e of stream) items.push(e);
    const result = await stream.result;
    expect(items.map((e) => [e.type, e.text, e.startMs, e.endMs])).toEqual([['final', 'all of it', 0, 500]]);
    expect(result.provider).toBe('a');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([['a', 'failed']]);
    expect(seen).toEqual(['attempt a', 'error a true']);
    expect(b.connections()).toBe(0);
    expect(r.stats().providers.map((p) => p.provider)).toEqual(['a']);
    await r.close();
  });
});
