/**
 * TTS `midStream: 'resume'`: once a provider failed mid-stream, the provider that took over
 * keeps the rest of the call. The failed one goes to the back of the call's order: it is not
 * asked for the later sentences of that call (a stutter on each sentence, and each sentence
 * billed twice, when its look-ahead was thrown away and asked of it again), and the look-ahead
 * it was fetching is cancelled and asked of the replacement once. It is asked again in the same
 * call only when the replacement fails too, and the next call is routed as usual. The same holds
 * for the TTS stage of voiceTurn().
 *
 * The servers speak the wire on their own (node:http OpenAI-compatible `/audio/speech`, a
 * Cartesia `/tts/websocket`), with none of voxroute's mocks. A provider cuts a sentence once its
 * look-ahead request arrives: that request is sent when the sentence's first byte reached the
 * router, so the cut comes after audio was heard, with no timer.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { type AudioChunk, type RoutedStream, type RouterConfig, voiceTurn } from '../../src/index.js';
import { sendCartesiaContext } from './wire/cartesia-context.js';
import {
  chatChunk,
  concat,
  drain,
  httpServer,
  pcmSignal,
  readBody,
  router,
  sseFrames,
  wsServer,
} from './wire/servers.js';

const SENTENCES = ['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.', 'Seven.', 'Eight.'];
const TEXT = SENTENCES.join(' ');
const PCM24 = { encoding: 'pcm_s16le', sampleRate: 24_000 } as const;

/** Provider `who`'s audio for `text`: 0.25 s of PCM s16le 24 kHz, its own signal for each text and provider. */
function audioOf(who: string, text: string): Buffer {
  const seed = (who.charCodeAt(0) - 96) * 10 + SENTENCES.indexOf(text) + 1;
  return pcmSignal(6000, 24_000, seed);
}

/** The part of a cut answer sent before the cut: its first half. */
const cutPart = (who: string, text: string) => audioOf(who, text).subarray(0, 6000);

/** What each server was asked, in arrival order, across servers: [provider, text]. */
type Asked = Array<[string, string]>;

/**
 * An OpenAI-compatible speech server `who`. The requests numbered in `cuts` (1-based, this
 * server's own count) are cut: half their audio, then the connection is reset once the next
 * request arrives (the look-ahead, asked when that half reached the router). That next request
 * is answered whole before the cut (`lookAhead: 'answered'`) or left without an answer
 * (`'in-flight'`). Every other request is answered whole.
 */
async function speechServer(
  who: string,
  asked: Asked,
  cuts: readonly number[],
  lookAhead: 'answered' | 'in-flight' = 'answered',
) {
  let cut: ServerResponse | undefined;
  return httpServer(async (req, res, n) => {
    const text = String((JSON.parse((await readBody(req)).toString('utf8')) as { input: string }).input);
    asked.push([who, text]);
    const previous = cut;
    cut = undefined;
    if (previous) {
      // The look-ahead of a cut sentence.
      if (lookAhead === 'answered') {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.end(audioOf(who, text), () => previous.socket?.destroy());
      } else {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.flushHeaders();
        previous.socket?.destroy();
      }
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    if (cuts.includes(n)) {
      res.write(cutPart(who, text));
      cut = res;
    } else res.end(audioOf(who, text));
  });
}

const speech = (url: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl: `${url}/v1`,
  tts: { model: 'm', voices: { agent: 'v' } },
});

function routeOf(providers: RouterConfig['providers']): RouterConfig {
  return {
    providers,
    routes: { tts: { providers: Object.keys(providers), strategy: 'priority', midStream: 'resume' } },
  };
}

/** Where each chunk marked `discontinuity` starts, as byte offsets into the audio heard. */
function switchesOf(chunks: readonly AudioChunk[]): number[] {
  const switches: number[] = [];
  let at = 0;
  for (const c of chunks) {
    if (c.discontinuity) switches.push(at);
    at += c.data.byteLength;
  }
  return switches;
}

/** What the caller heard: the bytes, where each chunk marked `discontinuity` starts (byte offsets), and the attempts. */
async function heard(stream: RoutedStream<AudioChunk>) {
  const { items, error } = await drain<AudioChunk>(stream);
  const result = await stream.result;
  return {
    error,
    bytes: concat(items.map((c) => c.data)),
    switches: switchesOf(items),
    provider: result.provider,
    attempts: result.attempts.map((a) => [a.provider, a.outcome]),
  };
}

const spoken = (who: string, texts: readonly string[]) => texts.map((t) => audioOf(who, t));

describe('resume-stays-on-stand-in', () => {
  for (const lookAhead of ['answered', 'in-flight'] as const) {
    it(`resume-stays-on-stand-in: a cut on the first sentence moves the call to b for good; a's look-ahead (${lookAhead}) is asked of b once`, async () => {
      const asked: Asked = [];
      const a = await speechServer('a', asked, [1], lookAhead);
      const b = await speechServer('b', asked, []);
      const r = router(routeOf({ a: speech(a.url), b: speech(b.url) }));
      const h = await heard(r.tts({ text: TEXT, voice: 'agent', format: PCM24 }));
      expect(h.error).toBeUndefined();
      // a: the first sentence, cut, and its look-ahead, never heard; b from the cut sentence on.
      expect(asked).toEqual([['a', 'One.'], ['a', 'Two.'], ...SENTENCES.map((s) => ['b', s])]);
      expect(h.bytes).toEqual(concat([cutPart('a', 'One.'), ...spoken('b', SENTENCES)]));
      // One switch of provider, where b's audio starts; the cut part is heard again once.
      expect(h.switches).toEqual([6000]);
      expect(h.provider).toBe('b');
      expect(h.attempts).toEqual([
        ['a', 'failed'],
        ['b', 'success'],
      ]);
    });
  }

  it('resume-stays-on-stand-in: a cut later in the utterance; the failed provider is not asked for any later sentence', async () => {
    const asked: Asked = [];
    // a's third request is sentence 3 (sentence 2 was its look-ahead): cut there.
    const a = await speechServer('a', asked, [3]);
    const b = await speechServer('b', asked, []);
    const r = router(routeOf({ a: speech(a.url), b: speech(b.url) }));
    const h = await heard(r.tts({ text: TEXT, voice: 'agent', format: PCM24 }));
    expect(h.error).toBeUndefined();
    expect(asked).toEqual([
      ['a', 'One.'],
      ['a', 'Two.'],
      ['a', 'Three.'],
      ['a', 'Four.'],
      ...SENTENCES.slice(2).map((s) => ['b', s]),
    ]);
    const fromA = concat([...spoken('a', ['One.', 'Two.']), cutPart('a', 'Three.')]);
    expect(h.bytes).toEqual(concat([fromA, ...spoken('b', SENTENCES.slice(2))]));
    expect(h.switches).toEqual([fromA.byteLength]);
    expect(h.attempts).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it('resume-stays-on-stand-in: when the replacement fails in turn, the first provider (at the back since its failure) takes over', async () => {
    const asked: Asked = [];
    const a = await speechServer('a', asked, [1]);
    // b's fourth request is sentence 4: cut there.
    const b = await speechServer('b', asked, [4]);
    const r = router(routeOf({ a: speech(a.url), b: speech(b.url) }));
    const h = await heard(r.tts({ text: TEXT, voice: 'agent', format: PCM24 }));
    expect(h.error).toBeUndefined();
    expect(asked).toEqual([
      ['a', 'One.'],
      ['a', 'Two.'],
      ['b', 'One.'],
      ['b', 'Two.'],
      ['b', 'Three.'],
      ['b', 'Four.'],
      ['b', 'Five.'],
      ...SENTENCES.slice(3).map((s) => ['a', s]),
    ]);
    const fromA = cutPart('a', 'One.');
    const fromB = concat([...spoken('b', ['One.', 'Two.', 'Three.']), cutPart('b', 'Four.')]);
    expect(h.bytes).toEqual(concat([fromA, fromB, ...spoken('a', SENTENCES.slice(3))]));
    expect(h.switches).toEqual([fromA.byteLength, fromA.byteLength + fromB.byteLength]);
    expect(h.provider).toBe('a');
    expect(h.attempts).toEqual([
      ['a', 'failed'],
      ['b', 'failed'],
      ['a', 'success'],
    ]);
  });

  it('resume-stays-on-stand-in: the next call is routed as usual: the provider that failed once is first again', async () => {
    const asked: Asked = [];
    const a = await speechServer('a', asked, [1]);
    const b = await speechServer('b', asked, []);
    const r = router(routeOf({ a: speech(a.url), b: speech(b.url) }));
    const first = await heard(r.tts({ text: 'One. Two.', voice: 'agent', format: PCM24 }));
    expect(first.provider).toBe('b');
    asked.length = 0;
    const next = await heard(r.tts({ text: 'Three. Four.', voice: 'agent', format: PCM24 }));
    expect(next.error).toBeUndefined();
    expect(asked).toEqual([
      ['a', 'Three.'],
      ['a', 'Four.'],
    ]);
    expect(next.bytes).toEqual(concat(spoken('a', ['Three.', 'Four.'])));
    expect(next.switches).toEqual([]);
    expect(next.attempts).toEqual([['a', 'success']]);
  });

  it('resume-stays-on-stand-in: Cartesia over its WebSocket, text given whole: cut once, then the backup speaks the rest', async () => {
    const asked: Asked = [];
    let cutSocket: WebSocket | undefined;
    let transcripts = 0;
    const cartesia = await wsServer((ws) => {
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { transcript?: string; context_id?: string; cancel?: boolean };
        if (msg.cancel || !msg.transcript) return;
        const text = msg.transcript.trim();
        asked.push(['c', text]);
        transcripts++;
        if (transcripts === 1) {
          // Half of the first sentence, in one audio message; the context is left open.
          ws.send(
            JSON.stringify({
              type: 'chunk',
              context_id: msg.context_id,
              data: cutPart('c', text).toString('base64'),
              done: false,
              status_code: 206,
            }),
          );
          cutSocket = ws;
        } else if (transcripts === 2) {
          // The look-ahead arrived (the first half reached the router): the socket fails.
          cutSocket?.close(1011, 'internal error');
        } else sendCartesiaContext(ws, msg.context_id, audioOf('c', text));
      });
    });
    const b = await speechServer('b', asked, []);
    const r = router(
      routeOf({
        c: {
          kind: 'cartesia',
          baseUrl: cartesia.url,
          apiKey: 'k',
          tts: { voices: { agent: 'v' }, transport: 'websocket' },
        },
        b: speech(b.url),
      }),
    );
    const h = await heard(r.tts({ text: TEXT, voice: 'agent', format: PCM24 }));
    expect(h.error).toBeUndefined();
    expect(asked).toEqual([['c', 'One.'], ['c', 'Two.'], ...SENTENCES.map((s) => ['b', s])]);
    expect(h.bytes).toEqual(concat([cutPart('c', 'One.'), ...spoken('b', SENTENCES)]));
    expect(h.switches).toEqual([6000]);
    expect(h.attempts).toEqual([
      ['c', 'failed'],
      ['b', 'success'],
    ]);
  });

  it("resume-stays-on-stand-in: voiceTurn's TTS stage: the reply's sentences stay on the provider that took over", async () => {
    const asked: Asked = [];
    // STT (batch) and chat on one OpenAI-compatible server; the reply comes one sentence a delta.
    const llm = await httpServer(async (req, res) => {
      await readBody(req);
      if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'Count to four.' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        sseFrames([
          chatChunk({ role: 'assistant', content: '' }),
          ...SENTENCES.slice(0, 4).map((s, i) => chatChunk({ content: i === 0 ? s : ` ${s}` })),
          chatChunk({}, 'stop'),
          '[DONE]',
        ]),
      );
    });
    const a = await speechServer('a', asked, [1]);
    const b = await speechServer('b', asked, []);
    const r = router({
      providers: {
        l: {
          kind: 'openai-compatible',
          baseUrl: `${llm.url}/v1`,
          chat: { models: { f: 'm' } },
          stt: { model: 'w', streaming: false },
        },
        a: speech(a.url),
        b: speech(b.url),
      },
      routes: {
        stt: { providers: ['l'] },
        chat: { providers: ['l'] },
        tts: { providers: ['a', 'b'], strategy: 'priority', midStream: 'resume' },
      },
    });
    async function* mic() {
      for (let i = 0; i < 3; i++) yield new Uint8Array(3200);
    }
    const turn = voiceTurn(r, {
      audio: mic(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      messages: [],
      model: 'f',
      voice: 'agent',
    });
    const chunks: AudioChunk[] = [];
    for await (const e of turn) if (e.type === 'audio') chunks.push(e.chunk);
    // Streamed text: the first clause goes at once, the rest of the reply (read meanwhile) as the next.
    const clauses = ['One.', 'Two. Three. Four.'];
    expect(asked).toEqual([['a', 'One.'], ['a', clauses[1]], ...clauses.map((s) => ['b', s])]);
    expect(concat(chunks.map((c) => c.data))).toEqual(
      concat([cutPart('a', 'One.'), ...spoken('b', clauses)]),
    );
    expect(switchesOf(chunks)).toEqual([6000]);
    const result = await turn.result;
    expect(result.stages.tts!.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });
});
