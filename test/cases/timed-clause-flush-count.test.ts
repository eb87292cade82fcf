/**
 * A clause released by the timer of held text (HELD_TEXT_FLUSH_MS) at its last white space,
 * when the word after it was already sent, is not marked with a clause end: the provider gets
 * no flush for it and speaks it with the next clause end. A provider that says how many of its
 * flushes are complete (Cartesia's `flush_done`) then counts one flush for two clauses: the
 * router must turn the flushes answered into the clauses they complete, or after a mid-stream
 * failure the next provider speaks again a clause the caller heard in full.
 *
 * The servers speak the wire on their own over loopback: a Cartesia /tts/websocket server (no
 * word timestamps: only `flush_done` tells what was heard) that closes with 1011 on the third
 * clause's text, and an OpenAI speech server as the backup. The router's clock is a fake one.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { HELD_TEXT_FLUSH_MS } from '../../src/routing/tts-progress.js';
import { deferred } from '../helpers/deferred.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { pcmSignal, recordingSpeechServer, router, wsServer } from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

const AUDIO = pcmSignal(480, 24_000, 3);

/** A Cartesia server: audio per transcript, flush_done per flush; an error close on `cutAt`. */
async function cartesia(cutAt: string) {
  const transcripts: string[] = [];
  const wire = await wsServer((ws: WebSocket) => {
    let flushes = 0;
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Record<string, unknown>;
      const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
      if (m.cancel) return;
      const transcript = typeof m.transcript === 'string' ? m.transcript : '';
      if (transcript !== '') {
        transcripts.push(transcript);
        if (transcript.includes(cutAt)) {
          ws.close(1011, 'internal error');
          return;
        }
        send({ type: 'chunk', data: AUDIO.toString('base64'), done: false, status_code: 206 });
      }
      if (m.flush === true) {
        flushes++;
        send({ type: 'flush_done', done: false, flush_done: true, flush_id: flushes, status_code: 206 });
      }
      if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
    });
  });
  return { url: wire.url, transcripts };
}

describe('a clause released by the timer without a flush of its own', () => {
  it('is counted with the flush that completes it: the backup does not speak it, nor the next, again', async () => {
    const clock = new FakeClock();
    const primary = await cartesia('Anything');
    const backup = await recordingSpeechServer(AUDIO);
    const r = router(
      ttsRouteWithBackup(
        'primary',
        {
          kind: 'cartesia',
          baseUrl: primary.url,
          apiKey: 'k',
          tts: { voices: { v: 'voice' }, transport: 'websocket', addTimestamps: false, keepWarmMs: 0 },
        },
        `${backup.wire.url}/v1`,
        { midStream: 'resume', firstChunkTimeoutMs: false },
        { v: 'x' },
      ),
      { clock },
    );
    const pause = deferred();
    let paused = false;
    async function* llm(): AsyncGenerator<string> {
      yield* ['Let', ' me', ' look', ' that', ' up', ' for'];
      paused = true;
      await pause.promise;
      yield* [' you', ',', ' and', ' I', ' will', ' check', ' the', ' calendar', ' now', '.'];
      yield* [' Anything', ' else?'];
    }
    const done = (async () => {
      let bytes = 0;
      for await (const chunk of r.tts({ text: llm(), voice: 'v' })) bytes += chunk.data.byteLength;
      return bytes;
    })();
    await until(() => paused && primary.transcripts.join('') === 'Let me look that up for', 'the words sent');
    // The pause: the words up to the last white space are a clause ("for" may go on).
    clock.advance(HELD_TEXT_FLUSH_MS);
    pause.resolve();
    await done;
    expect(primary.transcripts.join('')).toBe(
      'Let me look that up for you, and I will check the calendar now. Anything else?',
    );
    // The one flush answered completes clauses 0 and 1: the backup starts at the third.
    expect(backup.inputs).toEqual(['Anything else?']);
  });
});
