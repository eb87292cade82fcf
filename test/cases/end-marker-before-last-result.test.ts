/**
 * An end marker before the last result: a Deepgram listen server that sends `Metadata` after
 * CloseStream before the final `Results` flushed by Finalize (then closes). The stream ended at
 * `Metadata` as a success with the words dropped, and a voice turn took it as "nothing was
 * said". Now `Metadata` ends the stream only once Finalize's final came; before that, the
 * adapter reads on until the socket closes, or stays open past the idle wait. The server speaks
 * the wire on its own (ws on loopback).
 */
import { describe, expect, it } from 'vitest';
import { drain, router, wsServer } from './wire/servers.js';

const PCM16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const FINAL = 'book a table for two';

const metadata = JSON.stringify({ type: 'Metadata', request_id: 'r1', duration: 1, channels: 1 });
const finalResult = (fromFinalize: boolean) =>
  JSON.stringify({
    type: 'Results',
    is_final: true,
    speech_final: true,
    from_finalize: fromFinalize,
    start: 0,
    // The 100 ms of audio sent (a time past it is a malformed frame).
    duration: 0.1,
    channel: { alternatives: [{ transcript: FINAL, confidence: 0.98, words: [] }] },
  });

/**
 * A listen server that answers CloseStream with `messages` in order, then closes 1000 when
 * `close` is true (else leaves the socket open).
 */
async function listenServer(messages: string[], close: boolean) {
  return wsServer((ws) => {
    ws.on('message', (raw, isBinary) => {
      if (isBinary || (JSON.parse(String(raw)) as { type: string }).type !== 'CloseStream') return;
      for (const message of messages) ws.send(message);
      if (close) ws.close(1000);
    });
  });
}

async function transcribe(url: string, idleTimeoutMs?: number) {
  const r = router({
    providers: { dg: { kind: 'deepgram', baseUrl: url, apiKey: 'test-key', stt: { model: 'nova-3' } } },
    routes: { stt: { providers: ['dg'], strategy: 'priority', ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } },
  });
  const audio = (async function* () {
    yield new Uint8Array(3200);
  })();
  const stream = r.stt({ audio, format: PCM16K });
  const { items, error } = await drain(stream);
  const result = error === undefined ? await stream.result : undefined;
  await r.close();
  return { texts: items.map((e) => `${e.type}:${e.text}`), error, provider: result?.provider };
}

describe('Deepgram listen: Metadata before the last final is not the end', () => {
  it('Metadata, then the Finalize final, then close 1000: the final is delivered', async () => {
    const server = await listenServer([metadata, finalResult(true)], true);
    expect(await transcribe(server.url)).toEqual({
      texts: [`final:${FINAL}`],
      error: undefined,
      provider: 'dg',
    });
  });

  it('Metadata, then a final without from_finalize, then close 1000: the final is delivered', async () => {
    const server = await listenServer([metadata, finalResult(false)], true);
    expect(await transcribe(server.url)).toEqual({
      texts: [`final:${FINAL}`],
      error: undefined,
      provider: 'dg',
    });
  });

  it('the Finalize final, then Metadata, socket left open: the stream ends at Metadata', async () => {
    const server = await listenServer([finalResult(true), metadata], false);
    expect(await transcribe(server.url)).toEqual({
      texts: [`final:${FINAL}`],
      error: undefined,
      provider: 'dg',
    });
  });

  it('Metadata with no final, socket left open: a normal end after the idle wait, no error', async () => {
    const server = await listenServer([metadata], false);
    expect(await transcribe(server.url, 200)).toEqual({ texts: [], error: undefined, provider: 'dg' });
  });
});
