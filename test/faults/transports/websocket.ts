/**
 * WebSocket transport: Cartesia /tts/websocket (JSON text frames, base64 audio; PROTOCOLS.md
 * 1.5) for TTS, Deepgram /v1/listen (binary audio in, JSON Results out, close frames for
 * errors; PROTOCOLS.md 3.2) for STT. Written here on ws, not through voxroute/testing.
 */
import type { RawData, WebSocket } from 'ws';
import { STT_WORDS, TTS_FIRST, TTS_REST } from '../fixtures.js';
import { FAULTS } from '../matrix.js';
import type { Transport } from '../wire/cell.js';
import { faultyWs, type WsScript } from '../wire/ws.js';

const text = (data: RawData) => String(data);

/** Cartesia TTS: answers the first generation request of a context with two chunks and done. */
const cartesiaTts: WsScript = {
  request(data, isBinary) {
    if (isBinary) return undefined;
    const m = JSON.parse(text(data)) as { context_id?: string; transcript?: string };
    return m.transcript ? m.context_id : undefined;
  },
  first(ws, contextId) {
    ws.send(
      JSON.stringify({
        type: 'chunk',
        context_id: contextId,
        data: TTS_FIRST.toString('base64'),
        done: false,
        status_code: 206,
      }),
    );
  },
  rest(ws, contextId) {
    ws.send(
      JSON.stringify({
        type: 'chunk',
        context_id: contextId,
        data: Buffer.from(TTS_REST).toString('base64'),
        done: false,
        status_code: 206,
      }),
    );
    ws.send(JSON.stringify({ type: 'done', context_id: contextId, done: true, status_code: 200 }));
  },
  reasons: { 1008: 'policy violation', 1011: 'internal error' },
  error: (status) => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error_code: null,
      title: `status ${status}`,
      message: `status ${status}`,
      request_id: 'r-1',
    }),
  }),
};

// Each final covers the caller's whole 50 ms (as Metadata says): the first comes after the first
// 25 ms piece, within the tolerance past the audio sent (more than that is a malformed frame),
// and leaves no audio waiting for a transcript when a later fault cuts the socket.
const results = (word: string) =>
  JSON.stringify({
    type: 'Results',
    channel_index: [0, 1],
    duration: 0.05,
    start: 0,
    is_final: true,
    speech_final: true,
    channel: { alternatives: [{ transcript: word, confidence: 0.99, words: [] }] },
  });

/** Deepgram live STT: one final per word; the second, Metadata and close after CloseStream. */
const deepgramListen: WsScript = {
  request: (_data, isBinary) => (isBinary ? true : undefined),
  isEnd: (data, isBinary) => !isBinary && text(data).includes('"CloseStream"'),
  first(ws) {
    ws.send(results(STT_WORDS[0]));
  },
  rest(ws: WebSocket) {
    ws.send(results(STT_WORDS[1]));
    ws.send(JSON.stringify({ type: 'Metadata', request_id: 'r-1', duration: 0.05, channels: 1 }));
    ws.close(1000);
  },
  reasons: {
    1008: 'DATA-0000: The payload cannot be decoded as audio',
    1011: 'NET-0000: internal server error',
  },
  error: (status) => ({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ err_code: 'ERR', err_msg: `status ${status}`, request_id: 'r-1' }),
  }),
};

export const WEBSOCKET: Transport = {
  name: 'WebSocket',
  faults: FAULTS,
  caps: {
    tts: async (ctx) => ({
      kind: 'cartesia',
      baseUrl: await faultyWs(cartesiaTts, ctx),
      apiKey: 'cartesia-fault-key',
      tts: { voices: { agent: 'v' }, transport: 'websocket' },
    }),
    stt: async (ctx) => ({
      kind: 'deepgram',
      baseUrl: await faultyWs(deepgramListen, ctx),
      apiKey: 'deepgram-fault-key',
      stt: { model: 'nova-3' },
    }),
  },
};
