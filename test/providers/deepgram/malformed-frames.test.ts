/**
 * A frame on the Deepgram listen socket that is not a JSON object with a string `type` is a
 * ProtocolError and a fallback; a well-formed message of a type this version does not know is
 * skipped (docs/decisions.md). The Deepgram server speaks the wire on its own (ws), not our mock.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProtocolError } from '../../../src/index.js';
import { drain, httpServer, readBody, router, wsServer } from '../../cases/wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const METADATA = JSON.stringify({ type: 'Metadata', request_id: 'r', duration: 1, channels: 1 });
const results = (text: string) =>
  JSON.stringify({
    type: 'Results',
    channel_index: [0, 1],
    // The 400 ms of audio sent (a time past it is a malformed frame).
    duration: 0.4,
    start: 0,
    is_final: true,
    speech_final: true,
    channel: { alternatives: [{ transcript: text, confidence: 0.9, words: [] }] },
    metadata: { request_id: 'r' },
  });

/** A Deepgram listen server that sends `odd` after the first audio frame, then ends normally. */
async function deepgram(odd: (ws: WebSocket) => void) {
  return wsServer((ws) => {
    let sent = false;
    ws.on('message', (data, isBinary) => {
      if (isBinary && !sent) {
        sent = true;
        odd(ws);
      } else if (!isBinary && JSON.parse(String(data)).type === 'CloseStream') {
        ws.send(results('from deepgram'));
        ws.send(METADATA);
        ws.close(1000);
      }
    });
  });
}

async function transcribe(dgUrl: string) {
  const b = await httpServer(async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"from backup"}');
  });
  const r = router({
    providers: {
      A: { kind: 'deepgram', baseUrl: dgUrl, apiKey: 'key', stt: { model: 'nova-3' } },
      B: {
        kind: 'openai-compatible',
        baseUrl: `${b.url}/v1`,
        apiKey: 'k',
        stt: { model: 'w', streaming: false },
      },
    },
    routes: { stt: { providers: ['A', 'B'], strategy: 'priority' } },
  });
  const fallbacks: Error[] = [];
  r.on('fallback', (ev) => fallbacks.push(ev.error as Error));
  async function* audio() {
    for (let i = 0; i < 4; i++) yield new Uint8Array(3200).fill(i + 1);
  }
  const { items, error } = await drain(r.stt({ audio: audio(), format: FORMAT }));
  return { texts: items.map((e) => `${e.type}:${e.text}`), error, fallbacks, backupHits: b.hits };
}

describe('Deepgram listen: malformed frames', () => {
  it.each([
    [
      'a binary frame',
      (ws: WebSocket) => ws.send(Buffer.from([1, 2])),
      'Binary frame on the listen socket (2 bytes); Deepgram sends JSON text only',
    ],
    [
      'a JSON array',
      (ws: WebSocket) => ws.send('[1,2,3]'),
      'Message on the listen socket is not a JSON object with a string type (7 chars)',
    ],
    [
      'an object without type',
      (ws: WebSocket) => ws.send('{"transcript":"hello"}'),
      'Message on the listen socket is not a JSON object with a string type (22 chars)',
    ],
    [
      'a numeric type',
      (ws: WebSocket) => ws.send('{"type":7}'),
      'Message on the listen socket is not a JSON object with a string type (10 chars)',
    ],
    [
      'JSON null',
      (ws: WebSocket) => ws.send('null'),
      'Message on the listen socket is not a JSON object with a string type (4 chars)',
    ],
  ])('%s is a ProtocolError and the next provider transcribes', async (_name, odd, message) => {
    const a = await deepgram(odd);
    const { texts, error, fallbacks, backupHits } = await transcribe(a.url);
    expect(error).toBeUndefined();
    expect(texts).toEqual(['final:from backup']);
    expect(backupHits).toBe(1);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toBeInstanceOf(ProtocolError);
    expect([fallbacks[0]?.message, (fallbacks[0] as ProtocolError).provider]).toEqual([message, 'A']);
  });

  it('a JSON object of an unknown type (a newer server) is skipped: Deepgram still transcribes', async () => {
    const a = await deepgram((ws) => ws.send('{"type":"Weird","x":1}'));
    const { texts, error, fallbacks, backupHits } = await transcribe(a.url);
    expect(error).toBeUndefined();
    expect(texts).toEqual(['final:from deepgram']);
    expect([fallbacks.length, backupHits]).toEqual([0, 0]);
  });
});
