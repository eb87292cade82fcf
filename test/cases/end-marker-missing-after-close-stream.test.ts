/**
 * An end marker missing after CloseStream: a Deepgram listen server answers CloseStream with a
 * normal close (1000) and no `Metadata` (with no Results, or after a final). Deepgram always
 * sends `Metadata` before that close (PROTOCOLS.md 3.2), so this is a cut stream; it ended the
 * call as "nothing was said" (success, no transcript, the fallback never tried). Now it is a
 * retryable ProtocolError (truncated) and the route falls back. Servers speak the wire on their
 * own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { MidStreamError, ProtocolError, type RouterConfig } from '../../src/index.js';
import { recordingDeepgram } from './wire/listen-server.js';
import { concat, drain, pcmSignal, pieces, router, wsServer } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 1 s of 16 kHz PCM s16le (32 000 bytes), sent in 100 ms chunks. */
const SPEECH = pcmSignal(16_000, 16_000, 2);
const FINAL = 'book a table for two';

const result = (text: string, start: number, duration: number) =>
  JSON.stringify({
    type: 'Results',
    is_final: true,
    speech_final: true,
    from_finalize: true,
    start,
    duration,
    channel: { alternatives: [{ transcript: text, confidence: 0.9, words: [] }] },
  });

/** A: answers CloseStream with `messages`, then a normal close and no Metadata. */
async function cutA(messages: string[]) {
  return wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary || (JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      for (const m of messages) ws.send(m);
      ws.close(1000);
    });
  });
}

/** B: a working Deepgram that records what it hears: CloseStream -> a final, Metadata, close. */
function workingB() {
  return recordingDeepgram((seconds) => result(FINAL, 0, seconds));
}

async function run(messages: string[], midStream: 'error' | 'replay' = 'error') {
  const a = await cutA(messages);
  const b = await workingB();
  const deepgram = (url: string) => ({
    kind: 'deepgram' as const,
    baseUrl: url,
    apiKey: 'test-key',
    stt: { model: 'nova-3' },
  });
  const config: RouterConfig = {
    providers: { a: deepgram(a.url), b: deepgram(b.server.url) },
    routes: { stt: { providers: ['a', 'b'], strategy: 'priority', midStream } },
  };
  const r = router(config);
  const fallbacks: Array<{ route: string; error: unknown }> = [];
  r.on('fallback', (e) =>
    fallbacks.push({ route: `${e.provider}->${e.next} ${e.partialOutput}`, error: e.error }),
  );
  const stream = r.stt({ audio: pieces(SPEECH, 3200), format: FORMAT });
  const { items, error } = await drain(stream);
  const provider = error === undefined ? (await stream.result).provider : undefined;
  return { finals: items.map((e) => `${e.text} [${e.startMs}, ${e.endMs}]`), error, provider, fallbacks, b };
}

function expectTruncated(error: unknown, partialOutput: boolean) {
  expect(error).toBeInstanceOf(ProtocolError);
  const e = error as ProtocolError;
  expect([e.provider, e.retryable, e.partialOutput]).toEqual(['a', true, partialOutput]);
  expect(e.message).toBe(
    "Provider 'a' closed the listen socket after CloseStream without Metadata, its end marker (transcript truncated)",
  );
}

describe('Deepgram listen: a normal close after CloseStream without Metadata', () => {
  it('no Results, no Metadata: a truncation; B hears all the audio from byte 0 and answers', async () => {
    const { finals, error, provider, fallbacks, b } = await run([]);
    expect(error).toBeUndefined();
    expect(provider).toBe('b');
    expect(fallbacks.map((f) => f.route)).toEqual(['a->b false']);
    expectTruncated(fallbacks[0]!.error, false);
    expect(concat(b.heard).equals(SPEECH)).toBe(true);
    expect(finals).toEqual([`${FINAL} [0, 1000]`]);
  });

  it("a final, then no Metadata, midStream 'error': MidStreamError with the final as partial text", async () => {
    const { finals, error, fallbacks, b } = await run([result('first part', 0, 0.5)]);
    expect(finals).toEqual(['first part [0, 500]']);
    expect(fallbacks).toEqual([]);
    expect(b.server.connections).toBe(0);
    expect(error).toBeInstanceOf(MidStreamError);
    expect((error as MidStreamError).partialText).toBe('first part');
    expectTruncated((error as MidStreamError).cause, true);
  });

  it("a final, then no Metadata, midStream 'replay': B hears the audio after the final", async () => {
    const { finals, error, fallbacks, b } = await run([result('first part', 0, 0.5)], 'replay');
    expect(error).toBeUndefined();
    expect(fallbacks.map((f) => f.route)).toEqual(['a->b true']);
    expectTruncated(fallbacks[0]!.error, true);
    expect(concat(b.heard).equals(SPEECH.subarray(16_000))).toBe(true);
    expect(finals).toEqual(['first part [0, 500]', `${FINAL} [500, 1000]`]);
  });
});
