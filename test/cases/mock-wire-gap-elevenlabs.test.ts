/**
 * Wire gaps of the ElevenLabs mock:
 * - the non-streaming convert endpoint, `POST /v1/text-to-speech/{voice_id}` (the official
 *   client's `textToSpeech.convert`), was a 404: only `/stream` was served. It now answers
 *   with the same audio and checks, counted as `calls('convert')`, over a loopback port and msw;
 * - on the stream-input WebSocket the key could come only from the `xi-api-key` handshake
 *   header or the first message, while ElevenLabs' reference also lists an `authorization`
 *   query parameter (for clients that cannot set headers). It is now accepted (`Bearer <key>`
 *   or the bare key) and recorded as `auth: 'query'`; a wrong one is refused like a wrong
 *   header. An `xi-api-key` query parameter is not documented and stays no way to
 *   authenticate. The HTTP endpoints take the `xi-api-key` header only, as documented.
 */

import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createElevenLabsMock,
  elevenLabsHandlers,
  type MockServer,
  mockElevenLabsAudio,
  startMockServer,
} from '../../src/testing/index.js';

const KEY = ['xi', 'wire', 'gap', 'key', '77'].join('-');
const VOICE = 'JBFqnCBsd6RMkjVDRZzb';
const TEXT = 'Your table is booked.';
const PCM16K = { encoding: 'pcm_s16le', sampleRate: 16000 } as const;

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(Buffer.from(value));
  }
  return Buffer.concat(parts);
}

let server: MockServer;
const mock = createElevenLabsMock({ apiKey: KEY, script: { stream: { chunkBytes: 1000 } } });
beforeAll(async () => {
  server = await startMockServer({ provider: mock });
});
afterAll(() => server.close());
afterEach(() => mock.reset());

describe('POST /v1/text-to-speech/{voice_id} (convert)', () => {
  it('textToSpeech.convert of the official client: exact PCM bytes, the exact request, its own call count', async () => {
    const client = new ElevenLabsClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
    const bytes = await readAll(
      await client.textToSpeech.convert(VOICE, {
        text: TEXT,
        modelId: 'eleven_multilingual_v2',
        outputFormat: 'pcm_16000',
      }),
    );
    expect(bytes.equals(Buffer.from(mockElevenLabsAudio(TEXT, PCM16K)))).toBe(true);
    const [request] = mock.requests;
    expect([request!.endpoint, request!.method, request!.path, request!.status]).toEqual([
      'convert',
      'POST',
      `/v1/text-to-speech/${VOICE}`,
      200,
    ]);
    expect(new URL(request!.url).search).toBe('?output_format=pcm_16000');
    expect(request!.headers['xi-api-key']).toBe(KEY);
    expect(request!.body).toEqual({ text: TEXT, model_id: 'eleven_multilingual_v2' });
    expect(request!.chunksSent).toBe(Math.ceil(bytes.byteLength / 1000));
    expect([mock.calls('convert'), mock.calls('stream')]).toEqual([1, 0]);
  });

  it('a wrong xi-api-key is a 401 in ElevenLabs shape; a key in the query does not count on HTTP', async () => {
    const client = new ElevenLabsClient({ apiKey: 'wrong', baseUrl: server.url, maxRetries: 0 });
    const error = await client.textToSpeech
      .convert(VOICE, { text: TEXT, outputFormat: 'pcm_16000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    expect((error as ElevenLabsError).statusCode).toBe(401);
    expect(((error as ElevenLabsError).body as { detail: { status: string } }).detail.status).toBe(
      'invalid_api_key',
    );

    const raw = await fetch(
      `${server.url}/v1/text-to-speech/${VOICE}?output_format=pcm_16000&xi-api-key=${KEY}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: TEXT }),
      },
    );
    expect(raw.status).toBe(401);
    await raw.body?.cancel();
  });

  it('a missing text is the 422 of /stream, at body.text', async () => {
    const response = await fetch(`${server.url}/v1/text-to-speech/${VOICE}?output_format=pcm_16000`, {
      method: 'POST',
      headers: { 'xi-api-key': KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }],
    });
  });

  it('through msw (elevenLabsHandlers) at the real base URL', async () => {
    const shared = createElevenLabsMock({ apiKey: KEY });
    const msw = setupServer(...elevenLabsHandlers({ provider: shared }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const client = new ElevenLabsClient({ apiKey: KEY, maxRetries: 0 });
      const bytes = await readAll(
        await client.textToSpeech.convert(VOICE, { text: TEXT, outputFormat: 'pcm_16000' }),
      );
      expect(bytes.equals(Buffer.from(mockElevenLabsAudio(TEXT, PCM16K)))).toBe(true);
      expect(shared.requests.map((r) => [r.endpoint, r.path])).toEqual([
        ['convert', `/v1/text-to-speech/${VOICE}`],
      ]);
    } finally {
      msw.close();
    }
  });
});

/** Opens stream-input with `query`, sends `messages` once open, and collects every server message until the close. */
async function session(query: string, messages: unknown[]) {
  const url = `${server.url.replace(/^http/, 'ws')}/v1/text-to-speech/${VOICE}/stream-input?output_format=pcm_16000&${query}`;
  const ws = new WebSocket(url);
  const received: Record<string, unknown>[] = [];
  ws.on('message', (data) => received.push(JSON.parse(data.toString()) as Record<string, unknown>));
  ws.on('open', () => {
    for (const message of messages) ws.send(JSON.stringify(message));
  });
  const [code, reason] = await new Promise<[number, string]>((resolve) =>
    ws.on('close', (c, r) => resolve([c, r.toString()])),
  );
  return { received, code, reason };
}

const audioOf = (received: Record<string, unknown>[]) =>
  Buffer.concat(
    received.filter((m) => typeof m.audio === 'string').map((m) => Buffer.from(m.audio as string, 'base64')),
  );

describe('stream-input: the authorization query parameter', () => {
  const turn = [{ text: ' ' }, { text: `${TEXT} ` }, { text: '' }];

  it.each([
    ['Bearer <key>', `authorization=${encodeURIComponent(`Bearer ${KEY}`)}`],
    ['the bare key', `authorization=${KEY}`],
  ])('%s authenticates with no header and no key in the first message', async (_name, query) => {
    const { received, code } = await session(query, turn);
    expect(code).toBe(1000);
    expect(audioOf(received).equals(Buffer.from(mockElevenLabsAudio(`${TEXT} `, PCM16K)))).toBe(true);
    expect(received.at(-1)).toEqual({ isFinal: true });
    const [socket] = mock.sockets;
    expect([socket!.auth, socket!.headers['xi-api-key']]).toEqual(['query', undefined]);
  });

  it('a wrong key in the query is refused like a wrong header: invalid_api_key, close 1008', async () => {
    const { received, code } = await session('authorization=Bearer%20wrong', turn);
    expect(received).toEqual([{ message: 'Invalid API key.', error: 'invalid_api_key', code: 1008 }]);
    expect(code).toBe(1008);
    expect(mock.sockets[0]!.generations).toEqual([]);
  });

  it('an xi-api-key query parameter (not documented) does not authenticate', async () => {
    const { received, code } = await session(`xi-api-key=${KEY}`, turn);
    expect(received).toEqual([{ message: 'Invalid API key.', error: 'invalid_api_key', code: 1008 }]);
    expect([code, mock.sockets[0]!.auth]).toEqual([1008, 'none']);
  });

  it('the key in the first message still works', async () => {
    const byMessage = await session('', [{ text: ' ', 'xi-api-key': KEY }, { text: 'Hi. ' }, { text: '' }]);
    expect([byMessage.code, byMessage.received.at(-1), mock.sockets[0]!.auth]).toEqual([
      1000,
      { isFinal: true },
      'message',
    ]);
  });
});
