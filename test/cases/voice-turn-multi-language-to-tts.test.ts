/**
 * A voice turn's `language` is the language heard and the language spoken: a registered one goes
 * to both the STT stage and the TTS stage. Deepgram's `multi` (recognize whatever is spoken), which
 * the turn accepts as stt() does, names no language to speak in: it used to reach the TTS
 * provider too (Cartesia's body `language: "multi"`, a value Cartesia does not document, sent
 * after the STT and chat stages had been billed); it now goes to the STT stage alone, and the TTS provider gets no
 * language (its configured one, else its own, applies). Deepgram listen (ws), OpenAI-compatible
 * chat and Cartesia /tts/bytes are loopback servers speaking their wire on their own.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { voiceTurn } from '../../src/index.js';
import { answerChat, httpServer, pcmSignal, readBody, router, wsServer } from './wire/servers.js';

/** What the providers were asked: the listen socket's `language` parameter, each TTS body's `language`. */
interface Asked {
  listen: Array<string | null>;
  speech: Array<string | undefined>;
}

/** Deepgram for STT (a final "Bonjour." at CloseStream), one HTTP server for chat and Cartesia TTS. */
async function setup(ttsLanguage?: string) {
  const asked: Asked = { listen: [], speech: [] };
  const listen = await wsServer((ws: WebSocket, req) => {
    asked.listen.push(new URL(req.url ?? '', 'ws://x').searchParams.get('language'));
    ws.on('message', (data, binary) => {
      if (binary || (JSON.parse(String(data)) as { type: string }).type !== 'CloseStream') return;
      ws.send(
        JSON.stringify({
          type: 'Results',
          is_final: true,
          from_finalize: true,
          start: 0,
          duration: 0.3,
          channel: { alternatives: [{ transcript: 'Bonjour.', confidence: 1 }] },
        }),
      );
      ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r' }));
      ws.close(1000);
    });
  });
  const http = await httpServer(async (req, res) => {
    const body = await readBody(req);
    if (req.url?.endsWith('/chat/completions')) return answerChat(res, 'Oui, une table pour deux.');
    asked.speech.push((JSON.parse(body.toString()) as { language?: string }).language);
    const audio = pcmSignal(2400, 24_000, 3);
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(audio.byteLength),
    });
    res.end(audio);
  });
  const r = router({
    providers: {
      d: {
        kind: 'deepgram',
        baseUrl: listen.url,
        apiKey: 'dg-NOT-A-REAL-KEY-0000',
        stt: { model: 'nova-3' },
      },
      o: { kind: 'openai-compatible', baseUrl: `${http.url}/v1`, chat: { models: { f: 'm' } } },
      c: {
        kind: 'cartesia',
        baseUrl: http.url,
        apiKey: 'sk_car_NOT-A-REAL-KEY',
        tts: {
          voices: { v: 'x' },
          transport: 'bytes',
          ...(ttsLanguage !== undefined ? { language: ttsLanguage } : {}),
        },
      },
    },
    routes: { stt: { providers: ['d'] }, chat: { providers: ['o'] }, tts: { providers: ['c'] } },
  });
  return { r, asked };
}

async function* mic() {
  for (let i = 0; i < 3; i++) yield new Uint8Array(3200);
}

async function turn(r: ReturnType<typeof router>, language?: string) {
  const t = voiceTurn(r, {
    audio: mic(),
    format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    messages: [],
    model: 'f',
    voice: 'v',
    ...(language !== undefined ? { language } : {}),
  });
  const audio: number[] = [];
  for await (const e of t) if (e.type === 'audio') audio.push(e.chunk.data.byteLength);
  const result = await t.result;
  return { transcript: result.transcript, reply: result.reply, spoken: audio.length > 0 };
}

describe("voiceTurn's language per stage", () => {
  it("'multi' goes to the STT stage only: the TTS provider is sent no language", async () => {
    const { r, asked } = await setup();
    expect(await turn(r, 'multi')).toEqual({
      transcript: 'Bonjour.',
      reply: 'Oui, une table pour deux.',
      spoken: true,
    });
    expect(asked).toEqual({ listen: ['multi'], speech: [undefined] });
  });

  it("'multi' leaves the TTS provider's configured language in force", async () => {
    const { r, asked } = await setup('fr');
    await turn(r, 'multi');
    expect(asked).toEqual({ listen: ['multi'], speech: ['fr'] });
  });

  it('a registered language goes to both stages (Cartesia: its primary subtag)', async () => {
    const { r, asked } = await setup();
    await turn(r, 'fr-CA');
    expect(asked).toEqual({ listen: ['fr-CA'], speech: ['fr'] });
  });

  it('no language: neither stage is sent one', async () => {
    const { r, asked } = await setup();
    await turn(r);
    expect(asked).toEqual({ listen: [null], speech: [undefined] });
  });
});
