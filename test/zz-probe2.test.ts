import { expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { deferred } from './helpers/deferred.js';
import { FakeClock } from './transport/fake-clock.js';
import { pcmSignal, recordingSpeechServer, router, wsServer } from './cases/wire/servers.js';

const AUDIO = pcmSignal(480, 24_000, 3);
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!predicate()) throw new Error(`timed out waiting for: ${what}`);
}
async function settle() { for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 1)); }

for (const when of ['die-on-meet', 'die-on-second-flush'] as const) {
  it(`held text then fallback: ${when}`, async () => {
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
          send({ type: 'flush_done', done: false, flush_done: true, flush_id: ++flushes, status_code: 206 });
        }
        if (m.continue === false) send({ type: 'done', done: true, status_code: 200 });
      });
    });
    const backup = await recordingSpeechServer(AUDIO);
    const r = router(
      {
        providers: {
          p: { kind: 'cartesia', baseUrl: wire.url, apiKey: 'k', tts: { voices: { v: 'x' }, transport: 'websocket', keepWarmMs: 0, addTimestamps: false } },
          b: { kind: 'openai-compatible', baseUrl: `${backup.wire.url}/v1`, tts: { voices: { v: 'x' } } },
        },
        routes: { tts: { providers: ['p', 'b'], strategy: 'priority', midStream: 'resume', firstChunkTimeoutMs: false } },
      },
      { clock },
    );
    const gate = deferred();
    let waiting = false;
    async function* llm() {
      yield* ['Sure', ',', ' I', ' can', ' do', ' that', '.'];
      yield* [" I'll", ' meet', ' you', ' at', ' 5', ' p', '.m', '.'];
      waiting = true;
      await gate.promise;
      yield* [' See', ' you', ' then', '.'];
    }
    const done = (async () => { for await (const _ of r.tts({ text: llm(), voice: 'v' })) {} })();
    await until(() => waiting, 'held');
    await settle();
    clock.advance(400);
    await settle();
    gate.resolve();
    await done;
    console.log(when, JSON.stringify(log), JSON.stringify(backup.inputs));
    expect(backup.inputs).toEqual(["I'll meet you at 5 p.m.", 'See you then.']);
    expect(clock.pending).toBe(0);
  });
}
