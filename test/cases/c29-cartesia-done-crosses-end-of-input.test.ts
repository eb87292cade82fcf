/**
 * C29, streamed text on Cartesia's `/tts/websocket`: the server ends the context (`done`) after
 * the first clause's audio, without answering the flushes it was sent and without speaking the
 * rest, and its `done` crosses voxroute's end of input on the wire (the caller's tokens were all
 * there, so the whole text went out before the `done` arrived). The context was cut, not
 * complete: alone, the call ends with MidStreamError (a truncated ProtocolError), never a clean
 * end with most of the reply unspoken; with a backup and `midStream: 'resume'`, the backup
 * speaks the text from the first clause not known to be heard. The server speaks Cartesia's
 * wire on its own (ws) and sends its `done` once the end of input has arrived, so the crossing
 * does not depend on timing.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { MidStreamError, ProtocolError } from '../../src/index.js';
import { concat, drain, pcmSignal, recordingSpeechServer, router, wsServer } from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

const PCM24K = { encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 } as const;
const TEXT = 'Hello there, my friend. How are you today? Fine thanks, see you.';
const FIRST_CLAUSE = pcmSignal(2400, 24_000, 1);
const BACKUP = pcmSignal(2400, 24_000, 2);

/** The caller's text as an LLM streams it, every token at hand at once. */
async function* tokens(): AsyncGenerator<string> {
  for (const token of TEXT.split(/(?<= )/)) yield token;
}

/**
 * A Cartesia /tts/websocket server that, once a context's end of input (`continue: false`)
 * arrived, sends the first clause's audio and `done`: no `flush_done` for the flushes it got.
 */
async function cartesiaCutting() {
  return wsServer((ws: WebSocket) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { context_id: string; continue?: boolean; cancel?: boolean };
      if (m.cancel || m.continue !== false) return;
      const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
      send({ type: 'chunk', data: FIRST_CLAUSE.toString('base64'), done: false, status_code: 206 });
      send({ type: 'done', done: true, status_code: 200 });
    });
  });
}

const cartesia = (url: string) => ({
  kind: 'cartesia' as const,
  baseUrl: url,
  apiKey: 'sk_car_case',
  tts: { voices: { agent: 'v' }, transport: 'websocket' as const },
});

describe('C29: a Cartesia done that crosses the end of input with flushes unanswered is a cut, never a complete reply', () => {
  it('C29: Cartesia alone: MidStreamError (truncated) after the first clause, not a clean end', async () => {
    const a = await cartesiaCutting();
    const r = router(ttsRouteWithBackup('a', cartesia(a.url), undefined));
    const { items, error } = await drain(r.tts({ text: tokens(), voice: 'agent', format: PCM24K }));
    expect(concat(items.map((c) => c.data)).equals(FIRST_CLAUSE)).toBe(true);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect((cause as ProtocolError).message).toBe(
      'Cartesia sent done for the context before the end of the text (truncated)',
    );
    expect((error as MidStreamError).partialOutput).toBe(true);
  });

  it('C29: with a backup (midStream resume) the backup speaks the text from the first clause not known heard', async () => {
    const a = await cartesiaCutting();
    const b = await recordingSpeechServer(BACKUP);
    const r = router(
      ttsRouteWithBackup('a', cartesia(a.url), `${b.wire.url}/v1`, { midStream: 'resume' }, { agent: 'x' }),
    );
    const stream = r.tts({ text: tokens(), voice: 'agent', format: PCM24K });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    // No clause was acknowledged (no flush_done, no timestamps): b starts from the first, in the
    // clauses the router cut the tokens into.
    expect(b.inputs).toEqual(['Hello there,', 'my friend. How are you today?', 'Fine thanks, see you.']);
    expect(concat(items.map((c) => c.data)).equals(concat([FIRST_CLAUSE, BACKUP, BACKUP, BACKUP]))).toBe(
      true,
    );
    const result = await stream.result;
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });
});
