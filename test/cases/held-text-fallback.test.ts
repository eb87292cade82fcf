/**
 * Held streamed text (HELD_TEXT_FLUSH_MS) and a mid-stream fallback: a Cartesia WebSocket
 * primary fails with "I'll meet you at 5 p.m." held (its text sent, not yet flushed), or just
 * after the timer flushed it (before its flush_done); the OpenAI backup then speaks that
 * sentence (at the timer, or at once as the clause that was cut) and the rest: no complete
 * clause twice, nothing lost, no timer left. The
 * servers speak each wire on their own over loopback; the router's clock is a fake one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { loadDeferredCode } from '../../src/routing/load-deferred-code.js';
import { HELD_TEXT_FLUSH_MS } from '../../src/routing/tts-progress.js';
import { deferred } from '../helpers/deferred.js';
import { until } from '../helpers/until.js';
import { FakeClock } from '../transport/fake-clock.js';
import { pcmSignal, recordingSpeechServer, router, wsServer } from './wire/servers.js';
import { ttsRouteWithBackup } from './wire/tts-route.js';

const AUDIO = pcmSignal(480, 24_000, 3);

// The adapters' and transports' code loads when the first router is made (compiled on demand
// under vitest): about 1 s on an idle machine, ten times that under load. Loaded here, so that
// a test's 20 s covers its own case, not the file's cold start.
beforeAll(() => loadDeferredCode(), 60_000);

describe('held streamed text across a mid-stream fallback', () => {
  for (const when of ['die-on-meet', 'die-on-second-flush'] as const) {
    it(`the primary ${when === 'die-on-meet' ? 'fails while the sentence is held' : 'fails after the timed flush, before its flush_done'}: the backup speaks it once, then the rest`, async () => {
      const clock = new FakeClock();
      const log: string[] = [];
      const wire = await wsServer((ws: WebSocket) => {
        let flushes = 0;
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw)) as Record<string, unknown>;
          const send = (message: object) => ws.send(JSON.stringify({ context_id: m.context_id, ...message }));
          if (m.cancel) return;
          const t = typeof m.transcript === 'string' ? m.transcript : '';
          if (t) log.push(t);
          if (when === 'die-on-meet' && t.includes('meet')) return void ws.close(1011, 'x');
          if (t) send({ type: 'chunk', data: AUDIO.toString('base64'), done: false, status_code: 206 });
          if (m.flush === true) {
            log.push('|');
            if (when === 'die-on-second-flush' && flushes === 1) return void ws.close(1011, 'x');
            send({
              type: 'flush_done',
              done: false,
              flush_done: true,
              flush_id: ++flushes,
              status_code: 206,
            });
          }
          if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
        });
      });
      const backup = await recordingSpeechServer(AUDIO);
      const r = router(
        ttsRouteWithBackup(
          'p',
          {
            kind: 'cartesia',
            baseUrl: wire.url,
            apiKey: 'k',
            tts: { voices: { v: 'x' }, transport: 'websocket', keepWarmMs: 0, addTimestamps: false },
          },
          `${backup.wire.url}/v1`,
          { midStream: 'resume', firstChunkTimeoutMs: false },
          { v: 'x' },
        ),
        { clock },
      );
      let fellBack = false;
      r.on('fallback', () => {
        fellBack = true;
      });
      const gate = deferred();
      let waiting = false;
      async function* llm() {
        yield* ['Sure', ',', ' I', ' can', ' do', ' that', '.'];
        yield* [" I'll", ' meet', ' you', ' at', ' 5', ' p', '.m', '.'];
        waiting = true;
        await gate.promise;
        yield* [' See', ' you', ' then', '.'];
      }
      const done = (async () => {
        for await (const _ of r.tts({ text: llm(), voice: 'v' })) {
        }
      })();
      // The clock moves once the case stands, not after a few ms of real time: the held sentence
      // is on the primary's wire, the timer of held text is set (due at 400 ms) and, for
      // die-on-meet, the router has seen the primary fail and moved to the backup. Moved
      // earlier, the timer releases the sentence to the primary (another case); moved before
      // the timer is set, it fires nothing.
      await until(
        () =>
          waiting &&
          log.some((t) => t.includes('meet')) &&
          clock.hasTimerAt(HELD_TEXT_FLUSH_MS) &&
          (when === 'die-on-second-flush' || fellBack),
        when === 'die-on-meet'
          ? 'the primary failed on the held sentence, its timer set'
          : 'the held sentence sent, its timer set',
      );
      expect(fellBack).toBe(when === 'die-on-meet');
      clock.advance(HELD_TEXT_FLUSH_MS);
      await until(() => backup.inputs.length === 1, 'the held sentence asked of the backup');
      gate.resolve();
      await done;
      if (when === 'die-on-second-flush')
        expect(log).toEqual(['Sure, I can do that.', '|', " I'll meet you at 5 p.m.", '|']);
      expect(backup.inputs).toEqual(["I'll meet you at 5 p.m.", 'See you then.']);
      expect(clock.pending).toBe(0);
    });
  }
});
