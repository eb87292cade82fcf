import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/index.js';
import {
  createDeepgramMock,
  createManualDelay,
  DEFAULT_CHUNK_BYTES,
  mockDeepgramSpeech,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { expectSameBytes } from '../helpers.js';

const KEY = 'dg-mock-key-123456';
const ORIGIN = 'http://deepgram.test';

function speak(
  query: string,
  body: unknown,
  headers: Record<string, string> = { authorization: `Token ${KEY}` },
) {
  return new Request(`${ORIGIN}/v1/speak?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function bodyPieces(response: Response): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

function joined(pieces: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(pieces));
}

describe('Deepgram mock /v1/speak', () => {
  it('streams raw linear16 at the asked rate in DEFAULT_CHUNK_BYTES pieces (container=none)', async () => {
    const mock = createDeepgramMock({ apiKey: KEY });
    const response = await mock.handle(
      speak('model=aura-2-thalia-en&encoding=linear16&sample_rate=24000&container=none', {
        text: 'Hello there',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const pieces = await bodyPieces(response);
    const expected = mockDeepgramSpeech('Hello there', { encoding: 'pcm_s16le', sampleRate: 24000 });
    // 11 characters x 60 ms = 660 ms at 24 kHz = 31680 bytes.
    expect(expected.byteLength).toBe(31680);
    expectSameBytes(joined(pieces), expected);
    expect(pieces.map((p) => p.byteLength)).toEqual([...Array(6).fill(DEFAULT_CHUNK_BYTES), 2880]);
    const [record] = mock.requests;
    expect(record).toMatchObject({ endpoint: 'speak', call: 1, status: 200, body: { text: 'Hello there' } });
    expect(await record!.ended).toBe('completed');
  });

  it('makes mu-law 8 kHz from the synthetic voice (the same bytes syntheticAudio gives)', async () => {
    const mock = createDeepgramMock();
    const response = await mock.handle(
      speak('encoding=mulaw&sample_rate=8000&container=none', { text: 'Hi' }),
    );
    const audio = joined(await bodyPieces(response));
    expectSameBytes(
      audio,
      syntheticAudio({ durationMs: 120, format: { encoding: 'mulaw', sampleRate: 8000 } }),
    );
    expect(audio.byteLength).toBe(960);
  });

  it('sends a WAV container when the query names none (the documented REST default)', async () => {
    const mock = createDeepgramMock();
    const response = await mock.handle(speak('encoding=alaw&sample_rate=8000', { text: 'Hi' }));
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const audio = joined(await bodyPieces(response));
    const format = { encoding: 'alaw' as const, sampleRate: 8000 };
    const wav = encodeWav(format, mockDeepgramSpeech('Hi', format));
    // Streaming sizes in the header (0xFFFFFFFF), the same samples after it.
    expect(Buffer.from(audio.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(new DataView(audio.buffer, audio.byteOffset).getUint32(4, true)).toBe(0xffffffff);
    expectSameBytes(audio.subarray(44), wav.subarray(44));
  });

  it('scales the duration by speed', async () => {
    const mock = createDeepgramMock({ speech: { msPerCharacter: 100 } });
    const response = await mock.handle(
      speak('encoding=linear16&sample_rate=16000&container=none&speed=2', { text: 'abcd' }),
    );
    // 4 x 100 ms / 2 = 200 ms at 16 kHz = 6400 bytes.
    expect(joined(await bodyPieces(response)).byteLength).toBe(6400);
  });

  it.each([
    [
      'a body field other than text',
      'encoding=linear16&sample_rate=24000',
      { text: 'x', model: 'aura' },
      "Unknown body field 'model'",
    ],
    [
      'an empty text',
      'encoding=linear16&sample_rate=24000',
      { text: ' ' },
      "'text' must be a non-empty string",
    ],
    ['a compressed encoding', 'encoding=mp3', { text: 'x' }, "encoding 'mp3' is not served"],
    ['no sample_rate', 'encoding=linear16', { text: 'x' }, "sample_rate '' is not valid for linear16"],
    ['mu-law at 24 kHz', 'encoding=mulaw&sample_rate=24000', { text: 'x' }, 'use one of 8000, 16000'],
  ])('answers 400 in the legacy error shape for %s', async (_name, query, body, message) => {
    const mock = createDeepgramMock();
    const response = await mock.handle(speak(query, body));
    expect(response.status).toBe(400);
    const json = (await response.json()) as Record<string, string>;
    expect(json.err_code).toBe('BAD_REQUEST');
    expect(json.err_msg).toContain(message);
    expect(json.request_id).toBe('00000000-0000-4000-8000-000000000001');
  });

  it('answers 401 INVALID_AUTH for a missing or wrong key, and accepts Bearer', async () => {
    const mock = createDeepgramMock({ apiKey: KEY });
    const query = 'encoding=linear16&sample_rate=24000&container=none';
    const missing = await mock.handle(speak(query, { text: 'x' }, {}));
    const wrong = await mock.handle(speak(query, { text: 'x' }, { authorization: 'Token nope' }));
    const bearer = await mock.handle(speak(query, { text: 'x' }, { authorization: `Bearer ${KEY}` }));
    expect([missing.status, wrong.status, bearer.status]).toEqual([401, 401, 200]);
    expect(await missing.json()).toEqual({
      err_code: 'INVALID_AUTH',
      err_msg: 'Invalid credentials.',
      request_id: '00000000-0000-4000-8000-000000000001',
    });
  });

  it('fails the first N calls with the scripted status, Retry-After and body', async () => {
    const mock = createDeepgramMock({
      script: {
        speak: {
          failTimes: 1,
          failStatus: 429,
          retryAfter: '2',
          failBody: { category: 'rate', message: 'slow down' },
        },
      },
    });
    const query = 'encoding=linear16&sample_rate=24000&container=none';
    const first = await mock.handle(speak(query, { text: 'x' }));
    const second = await mock.handle(speak(query, { text: 'x' }));
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({ category: 'rate', message: 'slow down' });
    expect(second.status).toBe(200);
    expect(mock.calls('speak')).toBe(2);
  });

  it('holds the first chunk for firstChunkDelayMs through the injected delay', async () => {
    const time = createManualDelay();
    const mock = createDeepgramMock({ delay: time.delay, script: { speak: { firstChunkDelayMs: 250 } } });
    const response = await mock.handle(
      speak('encoding=mulaw&sample_rate=8000&container=none', { text: 'Hi' }),
    );
    const reading = bodyPieces(response);
    expect(await time.release()).toBe(250);
    expect(joined(await reading).byteLength).toBe(960);
  });

  it('answers 404 for another path', async () => {
    const mock = createDeepgramMock();
    const response = await mock.handle(new Request(`${ORIGIN}/v1/read`, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(404);
    expect(mock.requests[0]!.endpoint).toBe('unknown');
  });
});
