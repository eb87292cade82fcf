/**
 * Kind 3(c), the timer side: after many calls of every capability (tts, stt, chat) over HTTP,
 * SSE, SageMaker response streams and WebSocket providers (Cartesia, Deepgram), with breakers
 * opened by failing providers, Retry-After cooldowns, hedged requests and first-chunk
 * deadlines, `router.close()` leaves no timer, socket or other handle of voxroute's:
 * `process.getActiveResourcesInfo()` lists nothing more than before the router was made, and,
 * since it lists only ref'd timers (an unref'd one leaks as surely), every handle created
 * meanwhile (timers ref'd or not, sockets, HTTP/2 sessions, tracked with async_hooks) has been
 * destroyed. Servers speak the wire on their own (loopback) and stay up until the check, so a
 * client socket left open would show as the server's socket too. The check forces a gc:
 * closed HTTP/2 sessions and their requests report their end to async_hooks only when collected.
 */
import { createHook } from 'node:async_hooks';
import { once } from 'node:events';
import { createServer as createH2Server, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createRouter, type RouterConfig } from '../../src/index.js';
import { sendCartesiaContext } from '../cases/wire/cartesia-context.js';
import { sageMakerTts } from '../cases/wire/sagemaker-response.js';
import {
  answerChat,
  answerPcm,
  concat,
  drain,
  httpServer,
  pcmSignal,
  wsServer,
} from '../cases/wire/servers.js';
import { payloadPart } from './wire/event-stream.js';

const AUDIO = pcmSignal(2400, 24_000, 1);
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;
const SPEECH = pcmSignal(3200, 16_000, 2);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Active resources as counts by type, e.g. { Timeout: 2, TCPSocketWrap: 4 }. */
function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

/** Types of each resource in `before` that are more numerous now (what is left over). */
function extra(before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, n] of Object.entries(resources()))
    if (n > (before[type] ?? 0)) out[type] = n - (before[type] ?? 0);
  return out;
}

/** Handles (timers, immediates, sockets, HTTP/2 sessions) created from now on and not yet destroyed, by async id. */
function trackHandles() {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (
        type !== 'PROMISE' &&
        type !== 'Immediate' &&
        type !== 'TickObject' &&
        type !== 'HTTPINCOMINGMESSAGE' &&
        type !== 'HTTPCLIENTREQUEST' &&
        // File reads: the test runner's module loader (lazy imports during the calls) opens
        // files with fs.promises, whose FileHandle reports its end only when collected. A router
        // call opens no file.
        type !== 'FILEHANDLE' &&
        type !== 'FILEHANDLECLOSEREQ' &&
        type !== 'FSREQPROMISE' &&
        type !== 'FSREQCALLBACK'
      )
        live.set(id, type);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    live: () => [...live.values()].sort(),
    stop: () => hook.disable(),
  };
}

/** Waits (on the event loop, a bounded number of turns) until `done()` or `ms` passed. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits (up to 2 s of event-loop turns, collecting garbage at each) until no resource is left
 * over from `before` and no tracked handle is live, stops tracking, and expects both empty.
 */
async function expectAllReleased(
  before: Record<string, number>,
  handles: ReturnType<typeof trackHandles>,
): Promise<void> {
  await until(() => {
    gc();
    return Object.keys(extra(before)).length === 0 && handles.live().length === 0;
  }, 2_000);
  handles.stop();
  expect(extra(before)).toEqual({});
  expect(handles.live()).toEqual([]);
}

async function* speech(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < SPEECH.byteLength; i += 640) yield SPEECH.subarray(i, i + 640);
}

describe('kind 3c: close() leaves no timer or handle', () => {
  it('after tts/stt/chat over HTTP, SageMaker and WebSocket, with breakers, cooldowns and hedges', async () => {
    // Healthy OpenAI-compatible server: speech, transcriptions, chat.
    const ok = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url?.endsWith('/audio/speech')) answerPcm(res, AUDIO);
        else if (req.url?.endsWith('/audio/transcriptions'))
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello there"}');
        else answerChat(res, 'Hello there.');
      });
    });
    // Fails every call: 503, or 429 with Retry-After (a cooldown) on every other request.
    const bad = await httpServer((req, res, n) => {
      req.resume();
      req.on('end', () => {
        if (n % 2 === 0)
          res
            .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' })
            .end('{"error":{"message":"slow down"}}');
        else res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
      });
    });
    // Answers after 40 ms: hedged after 5 ms by the healthy one, which wins.
    const slow = await httpServer((req, res) => {
      req.resume();
      const timer = setTimeout(() => answerPcm(res, AUDIO), 40);
      res.on('close', () => clearTimeout(timer));
    });
    const sm = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        res.end(Buffer.concat([payloadPart(AUDIO.subarray(0, 2400)), payloadPart(AUDIO.subarray(2400))]));
      });
    });
    const cartesia = await wsServer((ws: WebSocket) => {
      ws.on('message', (data) => {
        const context = (JSON.parse(String(data)) as { context_id?: string }).context_id;
        if (!context) return;
        sendCartesiaContext(ws, context, AUDIO);
      });
    });
    const deepgram = await wsServer((ws: WebSocket) => {
      ws.on('message', (raw, isBinary) => {
        if (isBinary) return;
        const type = (JSON.parse(String(raw)) as { type?: string }).type;
        if (type !== 'CloseStream') return;
        ws.send(
          JSON.stringify({
            type: 'Results',
            start: 0,
            duration: 0.2,
            is_final: true,
            speech_final: true,
            channel: { alternatives: [{ transcript: 'hello there' }] },
          }),
        );
        ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r' }));
        ws.close(1000);
      });
    });

    const before = resources();
    const handles = trackHandles();
    const r = createRouter({
      providers: {
        ok: {
          kind: 'openai-compatible',
          baseUrl: ok.url,
          tts: { voices: { agent: 'alloy' } },
          stt: { model: 'whisper', streaming: false },
          chat: { models: { fast: 'gpt' } },
        },
        bad: {
          kind: 'openai-compatible',
          baseUrl: bad.url,
          tts: { voices: { agent: 'alloy' } },
          stt: { model: 'whisper', streaming: false },
          chat: { models: { fast: 'gpt' } },
        },
        slow: { kind: 'openai-compatible', baseUrl: slow.url, tts: { voices: { agent: 'alloy' } } },
        sm: sageMakerTts(sm.url, 'response'),
        cws: {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: 'key-1234567890',
          tts: { voices: { agent: 'v1' }, transport: 'websocket' },
        },
        dg: { kind: 'deepgram', baseUrl: deepgram.url, apiKey: 'dg-key-123456', stt: { model: 'nova-3' } },
      },
      routes: {
        tts: { providers: ['bad', 'ok'], strategy: 'priority', firstChunkTimeoutMs: 2_000 },
        hedged: {
          capability: 'tts',
          providers: ['slow', 'ok'],
          strategy: 'priority',
          hedge: { after: 5, maxShare: 1 },
        },
        sagemaker: { capability: 'tts', providers: ['sm'], strategy: 'priority' },
        websocket: { capability: 'tts', providers: ['cws'], strategy: 'priority' },
        stt: { providers: ['bad', 'ok'], strategy: 'priority', firstChunkTimeoutMs: false },
        live: { capability: 'stt', providers: ['dg'], strategy: 'priority' },
        chat: { providers: ['bad', 'ok'], strategy: 'latency', totalTimeoutMs: 10_000 },
      },
    } as RouterConfig);

    const outcomes: string[] = [];
    const tts = async (route: string) => {
      const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent', route }));
      expect(error).toBeUndefined();
      expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
    };
    for (let i = 0; i < 12; i++) {
      await tts('tts');
      await tts('hedged');
      await tts('sagemaker');
      await tts('websocket');
      const stt = await drain(r.stt({ audio: speech(), format: FORMAT }));
      expect(stt.error).toBeUndefined();
      expect(stt.items.map((e) => e.text)).toEqual(['hello there']);
      const live = await drain(r.stt({ audio: speech(), format: FORMAT, route: 'live' }));
      expect(live.error).toBeUndefined();
      expect(live.items.map((e) => e.text)).toEqual(['hello there']);
      const chat = await drain(r.chat({ model: 'fast', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(chat.error).toBeUndefined();
      outcomes.push(...[stt, live, chat].map((x) => (x.error ? 'error' : 'ok')));
    }
    // Aborted and returned streams too.
    for (let i = 0; i < 5; i++) {
      const abort = new AbortController();
      const stream = r.tts({ text: 'Hello there.', voice: 'agent', route: 'hedged', signal: abort.signal });
      const it = stream[Symbol.asyncIterator]();
      const pending = it.next();
      abort.abort();
      await pending.catch(() => {});
      const live = r.stt({ audio: speech(), format: FORMAT, route: 'live' })[Symbol.asyncIterator]();
      const next = live.next();
      await live.return?.();
      await next.catch(() => {});
    }
    expect(outcomes.every((o) => o === 'ok')).toBe(true);
    // The failing provider was tried, and its breaker opened or a cooldown held it back.
    expect(bad.hits).toBeGreaterThan(0);
    expect(bad.hits).toBeLessThan(36);
    expect(slow.hits).toBeGreaterThan(0);

    await r.close();
    // Sockets close on their next turns of the event loop: waiting for events, not for time. The
    // gc: resources bound to callbacks (Node 24's STREAM_END_OF_STREAM for a stream's finished()
    // callback) report their end only when collected; one held by a live stream never does.
    await expectAllReleased(before, handles);
  });

  it('after SageMaker bidirectional (HTTP/2) streams, close() leaves no session, socket or timer', async () => {
    // An h2c SageMaker bidirectional endpoint: on the first input frame, the audio as two
    // PayloadParts; when the client ends its side (after the end frame), a clean end.
    const server = createH2Server();
    const sessions: Http2Session[] = [];
    server.on('session', (session) => {
      sessions.push(session);
      session.on('error', () => {});
    });
    server.on('stream', (stream: ServerHttp2Stream) => {
      stream.on('error', () => {});
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.once('data', () => {
        stream.write(payloadPart(AUDIO.subarray(0, 2400)));
        stream.write(payloadPart(AUDIO.subarray(2400)));
      });
      stream.on('end', () => stream.end());
      stream.resume();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const before = resources();
      const handles = trackHandles();
      const r = createRouter({
        providers: { sm: sageMakerTts(url, 'bidirectional') },
        routes: { tts: { providers: ['sm'], strategy: 'priority' } },
      });
      for (let i = 0; i < 20; i++) {
        const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
        expect(error).toBeUndefined();
        expect(concat(items.map((c) => c.data)).equals(AUDIO)).toBe(true);
      }
      await r.close();
      await expectAllReleased(before, handles);
    } finally {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
