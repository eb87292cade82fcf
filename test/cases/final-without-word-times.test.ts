/**
 * A final without word times under midStream 'replay': a Cartesia STT server answers
 * `finalize` with a final that has no `words` (only `duration`, or nothing), then dies (1011)
 * before `flush_done`. The next provider was sent the caller's audio from byte 0, so the
 * speech the final covered was transcribed twice. Now the final's end comes from `duration`
 * (B hears only the audio after it), and a final whose end is unknown is not replayed at all
 * (MidStreamError, B never contacted). Servers speak the wire on their own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { MidStreamError, ProviderError, type TranscriptEvent } from '../../src/index.js';
import { cartesiaSttServer } from './wire/cartesia-stt-server.js';
import { concat, drain, pcmSignal, pieces, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 500 ms of 16 kHz PCM s16le (16 000 bytes), sent in 100 ms chunks. */
const SPEECH = pcmSignal(8000, 16_000, 1);

/** A: on `finalize`, one final (`extra` fields, no words), then a 1011 close before flush_done. */
async function dyingA(extra: Record<string, unknown>) {
  return wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary || String(data) !== 'finalize') return;
      ws.send(
        JSON.stringify({
          type: 'transcript',
          request_id: 'a',
          text: 'first sentence',
          is_final: true,
          ...extra,
        }),
      );
      ws.close(1011, 'internal error');
    });
  });
}

/** B: records the audio it hears; `finalize` -> one final for it, flush_done; `close` -> done. */
function recordingB() {
  return cartesiaSttServer(
    (bytes) => ({
      type: 'transcript',
      request_id: 'b',
      text: `heard ${bytes} bytes`,
      is_final: true,
      duration: bytes / 32_000,
      words: [{ word: 'heard', start: 0, end: bytes / 32_000 }],
    }),
    { requestId: 'b' },
  );
}

/** A router over Cartesia STT `a` then `b` at those URLs (priority), replaying mid-stream. */
function replayRouter(aUrl: string, bUrl: string) {
  const cartesia = (url: string) => ({
    kind: 'cartesia' as const,
    baseUrl: url,
    apiKey: 'test-key',
    stt: { model: 'ink-whisper' },
  });
  return router({
    providers: { a: cartesia(aUrl), b: cartesia(bUrl) },
    routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream: 'replay' } },
  });
}

async function run(extra: Record<string, unknown>) {
  const a = await dyingA(extra);
  const b = await recordingB();
  const r = replayRouter(a.url, b.server.url);
  const fallbacks: string[] = [];
  r.on('fallback', (e) =>
    fallbacks.push(
      `${e.provider}->${e.next} partialOutput=${e.partialOutput} ${(e.error as Error).name} ${(e.error as ProviderError).status}`,
    ),
  );
  const { items, error } = await drain(r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }));
  const times = (e: TranscriptEvent) => `${e.type}:${e.text} [${e.startMs}, ${e.endMs}]`;
  return { events: items.map(times), error, fallbacks, a, b };
}

describe("midStream 'replay' after a final without word times", () => {
  it('a final with duration only: its end is the duration, B hears only the audio after it', async () => {
    const { events, error, fallbacks, b } = await run({ duration: 0.4 });
    expect(error).toBeUndefined();
    expect(fallbacks).toEqual(['a->b partialOutput=true ProviderError 1011']);
    // 400 ms = byte 12 800: B hears exactly the last 100 ms, and its times move by 400 ms.
    expect(concat(b.heard).equals(SPEECH.subarray(12_800))).toBe(true);
    expect(events).toEqual(['final:first sentence [undefined, 400]', 'final:heard 3200 bytes [400, 500]']);
  });

  it('a final with no time at all: nothing is replayed, MidStreamError, B is never contacted', async () => {
    const { events, error, fallbacks, b } = await run({});
    expect(events).toEqual(['final:first sentence [undefined, undefined]']);
    expect(fallbacks).toEqual([]);
    expect(b.server.connections).toBe(0);
    expect(error).toBeInstanceOf(MidStreamError);
    const mid = error as MidStreamError;
    expect([mid.partialText, mid.partialOutput, mid.retryable]).toEqual(['first sentence', true, true]);
    expect(ProviderError.isInstance(mid.cause)).toBe(true);
    expect((mid.cause as ProviderError).status).toBe(1011);
  });

  it('a later final with an end makes replay possible again', async () => {
    // A: two finals on finalize, the first without times, the second ending at 300 ms.
    const a = await wsServer((ws) => {
      ws.on('message', (data, binary) => {
        if (binary || String(data) !== 'finalize') return;
        ws.send(JSON.stringify({ type: 'transcript', text: 'one', is_final: true }));
        ws.send(JSON.stringify({ type: 'transcript', text: ' two', is_final: true, duration: 0.3 }));
        ws.close(1011, 'internal error');
      });
    });
    const b = await recordingB();
    const r = replayRouter(a.url, b.server.url);
    const { items, error } = await drain(r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT }));
    expect(error).toBeUndefined();
    expect(concat(b.heard).equals(SPEECH.subarray(9600))).toBe(true);
    expect(items.map((e) => `${e.text} ${e.endMs}`)).toEqual([
      'one undefined',
      // Cartesia's second final carries its leading space, as sent.
      ' two 300',
      'heard 6400 bytes 500',
    ]);
  });
});
