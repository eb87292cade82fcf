/**
 * A `{"type":"Error", ...}` message on the Deepgram listen socket (the documented Flux shape:
 * `sequence_id`, `code`, `description`) ends the attempt with a typed error, by its fields: auth,
 * passing or not retryable; without a code or description it is a ProtocolError. Every outcome
 * falls back, and the key the server echoes is redacted. The Deepgram server speaks the wire on
 * its own (ws), not our mock.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { ProtocolError, ProviderError } from '../../../src/index.js';
import { breakerFailureOf } from '../../../src/routing/health/index.js';
import { drain, httpServer, readBody, router, wsServer } from '../../cases/wire/servers.js';

const KEY = 'dg-secret-0123456789abcdef';
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const METADATA = JSON.stringify({ type: 'Metadata', request_id: 'r', duration: 1, channels: 1 });
const RESULTS = JSON.stringify({
  type: 'Results',
  duration: 0.4,
  start: 0,
  is_final: true,
  speech_final: true,
  channel: { alternatives: [{ transcript: 'from deepgram', confidence: 0.9, words: [] }] },
});

/** A Deepgram listen server that sends `error` after the first audio frame, else ends normally. */
async function deepgram(error: Record<string, unknown>) {
  return wsServer((ws: WebSocket) => {
    let sent = false;
    ws.on('message', (data, isBinary) => {
      if (isBinary && !sent) {
        sent = true;
        ws.send(JSON.stringify(error));
      } else if (!isBinary && JSON.parse(String(data)).type === 'CloseStream') {
        ws.send(RESULTS);
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
      A: { kind: 'deepgram', baseUrl: dgUrl, apiKey: KEY, stt: { model: 'nova-3' } },
      B: {
        kind: 'openai-compatible',
        baseUrl: `${b.url}/v1`,
        apiKey: 'k',
        stt: { model: 'w', streaming: false },
      },
    },
    routes: { stt: { providers: ['A', 'B'], strategy: 'priority' } },
  });
  const fallbacks: unknown[] = [];
  r.on('fallback', (ev) => fallbacks.push(ev.error));
  async function* audio() {
    for (let i = 0; i < 4; i++) yield new Uint8Array(3200).fill(i + 1);
  }
  const { items, error } = await drain(r.stt({ audio: audio(), format: FORMAT }));
  expect(error).toBeUndefined();
  expect(items.map((e) => `${e.type}:${e.text}`)).toEqual(['final:from backup']);
  expect(fallbacks).toHaveLength(1);
  return fallbacks[0];
}

const said = (rest: string) => `Provider 'A' sent an Error message on the listen socket ${rest}`;

describe('Deepgram listen: an Error message ends the attempt with its typed error', () => {
  it.each([
    [
      'a server error: retryable',
      { type: 'Error', sequence_id: 2, code: 'INTERNAL_SERVER_ERROR', description: 'Something went wrong' },
      [
        said('[INTERNAL_SERVER_ERROR]: Something went wrong'),
        true,
        false,
        'INTERNAL_SERVER_ERROR',
        'failure',
      ],
    ],
    [
      'an auth failure: not retryable, the breaker opens for auth',
      { type: 'Error', sequence_id: 1, code: 'UNAUTHORIZED', description: 'Invalid credentials' },
      [said('[UNAUTHORIZED]: Invalid credentials'), false, true, 'UNAUTHORIZED', 'auth'],
    ],
    [
      'a concurrency limit: retryable, not auth (though it names the key)',
      {
        type: 'Error',
        sequence_id: 1,
        code: 'TOO_MANY_REQUESTS',
        description: 'Too many streams for this API key',
      },
      [
        said('[TOO_MANY_REQUESTS]: Too many streams for this API key'),
        true,
        false,
        'TOO_MANY_REQUESTS',
        'failure',
      ],
    ],
    [
      'undecodable audio (DATA-0000): not retryable, not auth',
      { type: 'Error', code: 'DATA-0000', description: 'The payload cannot be decoded as audio' },
      [said('[DATA-0000]: The payload cannot be decoded as audio'), false, false, 'DATA-0000', 'failure'],
    ],
    [
      'legacy field names (err_code, err_msg); an invalid request is not retryable',
      { type: 'Error', err_code: 'BAD_REQUEST', err_msg: 'Invalid encoding' },
      [said('[BAD_REQUEST]: Invalid encoding'), false, false, 'BAD_REQUEST', 'failure'],
    ],
  ])('%s', async (_name, message, expected) => {
    const a = await deepgram(message);
    const error = await transcribe(a.url);
    expect(error).toBeInstanceOf(ProviderError);
    const e = error as ProviderError;
    expect([e.message, e.retryable, e.isAuthError, e.providerCode, breakerFailureOf(e).kind]).toEqual(
      expected,
    );
    expect([e.provider, e.status]).toEqual(['A', undefined]);
  });

  it('without a code or a description it is a ProtocolError', async () => {
    const a = await deepgram({ type: 'Error', sequence_id: 4 });
    const error = await transcribe(a.url);
    expect(error).toBeInstanceOf(ProtocolError);
    expect([(error as ProtocolError).message, (error as ProtocolError).retryable]).toEqual([
      'Error message on the listen socket without a code or a description',
      true,
    ]);
  });

  it('an echoed key is redacted from the description', async () => {
    const a = await deepgram({
      type: 'Error',
      code: 'INVALID_AUTH',
      description: `Token ${KEY} is not valid`,
    });
    const error = (await transcribe(a.url)) as ProviderError;
    expect(error.message).toBe(said('[INVALID_AUTH]: Token [redacted] is not valid'));
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(KEY);
  });
});
