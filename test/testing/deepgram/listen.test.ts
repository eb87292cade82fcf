import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDeepgramMock,
  createManualDelay,
  type DeepgramMockOptions,
  deepgramInactivityReason,
  type MockServer,
  startMockServer,
  syntheticAudio,
} from '../../../src/testing/index.js';
import { clockDelay } from '../../providers/deepgram/helpers.js';
import { FakeClock } from '../../transport/fake-clock.js';
import { openClient } from './ws-client.js';

const KEY = 'dg-mock-key-123456';
const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16000 };
/** `ms` of 16 kHz PCM s16le audio. */
const audio = (ms: number, seed = 0) => syntheticAudio({ durationMs: ms, format: FORMAT, seed });

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: DeepgramMockOptions = {}) {
  const mock = createDeepgramMock({ apiKey: KEY, ...options });
  server = await startMockServer({ provider: mock });
  const url = (query = 'model=nova-3&encoding=linear16&sample_rate=16000&channels=1&interim_results=true') =>
    `${server!.url.replace('http:', 'ws:')}/v1/listen?${query}`;
  return { mock, url };
}

const auth = { headers: { authorization: `Token ${KEY}` } };

describe('Deepgram mock /v1/listen', () => {
  it('sends interim and final Results with word times, Finalize and CloseStream finals, Metadata, then 1000', async () => {
    const { mock, url } = await serve({
      transcript: 'One two. Three four',
      wordMs: 100,
      inactivityTimeoutMs: 0,
    });
    const client = await openClient(
      url('encoding=linear16&sample_rate=16000&interim_results=true&punctuate=true'),
      auth,
    );
    const sent = [audio(100), audio(100, 1), audio(150, 2), audio(50, 3)];
    client.ws.send(sent[0]!);
    client.ws.send(sent[1]!);
    client.ws.send(sent[2]!);
    client.sendJson({ type: 'Finalize' });
    client.ws.send(sent[3]!);
    client.sendJson({ type: 'CloseStream' });
    expect(await client.closed).toEqual({ code: 1000, reason: '' });
    const summary = client.messages.map((m) => {
      const msg = m as Record<string, unknown> & {
        channel?: { alternatives: Array<{ transcript: string }> };
      };
      return msg.type === 'Results'
        ? [
            msg.channel!.alternatives[0]!.transcript,
            msg.start,
            msg.duration,
            msg.is_final,
            msg.speech_final,
            msg.from_finalize,
          ]
        : [msg.type, msg.duration];
    });
    expect(summary).toEqual([
      ['One', 0, 0.1, false, false, false],
      ['One two.', 0, 0.2, true, true, false],
      ['Three', 0.2, 0.15, false, false, false],
      ['Three', 0.2, 0.15, true, false, true],
      ['four', 0.35, 0.05, false, false, false],
      ['four', 0.35, 0.05, true, false, false],
      ['Metadata', 0.4],
    ]);
    const second = client.messages[1] as { channel: { alternatives: Array<{ words: unknown[] }> } };
    expect(second.channel.alternatives[0]!.words).toEqual([
      { word: 'one', start: 0, end: 0.1, confidence: 0.98, punctuated_word: 'One' },
      { word: 'two', start: 0.1, end: 0.2, confidence: 0.98, punctuated_word: 'two.' },
    ]);
    const session = mock.sessions[0]!;
    const all = Buffer.concat(sent);
    expect((client.messages[6] as { sha256: string }).sha256).toBe(
      createHash('sha256').update(all).digest('hex'),
    );
    expect(session.audioBytes).toBe(all.byteLength);
    expect(session.controls).toEqual(['Finalize', 'CloseStream']);
    expect(session.frames.map((f) => f.type)).toEqual([
      'binary',
      'binary',
      'binary',
      'text',
      'binary',
      'text',
    ]);
    expect(session.close).toEqual({ code: 1000, reason: '', by: 'server' });
    expect(session.record).toMatchObject({ endpoint: 'listen', status: 101, chunksSent: 7 });
    expect(await session.record.ended).toBe('completed');
  });

  it('without punctuation sends lower-case words and no punctuated_word; without interim_results only finals', async () => {
    const { url } = await serve({ transcript: 'Hello World.', wordMs: 100, inactivityTimeoutMs: 0 });
    const client = await openClient(url('encoding=linear16&sample_rate=16000'), auth);
    client.ws.send(audio(250));
    client.sendJson({ type: 'CloseStream' });
    await client.closed;
    expect(client.messages).toHaveLength(2);
    const results = client.messages[0] as {
      is_final: boolean;
      channel: { alternatives: Array<{ transcript: string; words: unknown[] }> };
    };
    expect(results.is_final).toBe(true);
    expect(results.channel.alternatives[0]!.transcript).toBe('hello world');
    expect(results.channel.alternatives[0]!.words[1]).toEqual({
      word: 'world',
      start: 0.1,
      end: 0.2,
      confidence: 0.98,
    });
    expect((client.messages[1] as { type: string }).type).toBe('Metadata');
  });

  it('accepts the key as the subprotocols "token, <key>" and selects "token"', async () => {
    const { mock, url } = await serve({ inactivityTimeoutMs: 0 });
    const client = await openClient(url(), { protocols: ['token', KEY] });
    expect(client.ws.protocol).toBe('token');
    expect(mock.sessions).toHaveLength(1);
    client.ws.close();
  });

  it('refuses the upgrade with 401 INVALID_AUTH for a wrong key, and 400 without an encoding', async () => {
    const { mock, url } = await serve();
    await expect(openClient(url(), { headers: { authorization: 'Token wrong' } })).rejects.toMatchObject({
      message: 'status 401',
      body: JSON.stringify({
        err_code: 'INVALID_AUTH',
        err_msg: 'Invalid credentials.',
        request_id: '00000000-0000-4000-8000-000000000001',
      }),
    });
    await expect(openClient(url('model=nova-3&sample_rate=16000'), auth)).rejects.toMatchObject({
      message: 'status 400',
    });
    expect(mock.requests.map((r) => [r.endpoint, r.status])).toEqual([
      ['listen', 401],
      ['listen', 400],
    ]);
    expect(mock.sessions).toHaveLength(0);
  });

  it('C13: closes with 1011 NET-0001 when no frame arrives within the inactivity window; any frame restarts it', async () => {
    const clock = new FakeClock();
    const { mock, url } = await serve({ delay: clockDelay(clock), inactivityTimeoutMs: 3000 });
    const client = await openClient(url(), auth);
    const session = await mock.session(0);
    clock.advance(2999);
    client.sendJson({ type: 'KeepAlive' });
    await session.waitFor((s) => s.controls.length === 1);
    clock.advance(2999);
    client.ws.send(audio(20));
    await session.waitFor((s) => s.audioBytes === 640);
    clock.advance(2999);
    expect(session.close).toBeUndefined();
    clock.advance(1);
    expect(await client.closed).toEqual({ code: 1011, reason: deepgramInactivityReason(3000) });
    expect(session.close).toEqual({
      code: 1011,
      reason: 'NET-0001 no audio or text received within the 3000 ms window',
      by: 'server',
    });
  });

  it('closes with the scripted code and reason instead of message K+1', async () => {
    const { url } = await serve({
      transcript: 'a b c d',
      wordMs: 100,
      inactivityTimeoutMs: 0,
      script: { listen: { closeAfterChunks: 1, closeCode: 1008, closeReason: 'invalid api key' } },
    });
    const client = await openClient(url(), auth);
    client.ws.send(audio(100));
    await client.until(1);
    client.ws.send(audio(100));
    expect(await client.closed).toEqual({ code: 1008, reason: 'invalid api key' });
    expect(client.messages).toHaveLength(1);
  });

  it('sends one malformed frame after K messages, then goes on', async () => {
    const { url } = await serve({
      transcript: 'a b c d',
      wordMs: 100,
      inactivityTimeoutMs: 0,
      script: { listen: { malformedAfterChunks: 1 } },
    });
    const client = await openClient(url(), auth);
    client.ws.send(audio(100));
    client.ws.send(audio(100));
    await client.until(3);
    expect(client.messages[1]).toBe('{"type":"Results","channel":');
    expect((client.messages[2] as { type: string }).type).toBe('Results');
    client.ws.close();
  });

  it('drops the connection (1006) on resetAfterChunks, and refuses the first upgrades on failTimes', async () => {
    const { url } = await serve({
      inactivityTimeoutMs: 0,
      wordMs: 100,
      script: { listen: [{ failTimes: 1, failStatus: 503 }, { resetAfterChunks: 0 }] },
    });
    await expect(openClient(url(), auth)).rejects.toMatchObject({ message: 'status 503' });
    const client = await openClient(url(), auth);
    client.ws.send(audio(100));
    expect((await client.closed).code).toBe(1006);
    expect(client.messages).toHaveLength(0);
  });

  it('stalls after K messages: CloseStream gets no Metadata and no close', async () => {
    const { mock, url } = await serve({
      transcript: 'a b',
      wordMs: 100,
      inactivityTimeoutMs: 0,
      script: { listen: { stallAfterChunks: 1 } },
    });
    const client = await openClient(url(), auth);
    client.ws.send(audio(100));
    await client.until(1);
    client.ws.send(audio(100));
    client.sendJson({ type: 'CloseStream' });
    const session = await mock.session(0);
    await session.waitFor((s) => s.controls.includes('CloseStream'));
    expect(session.close).toBeUndefined();
    client.ws.close(1000);
    expect(await session.closed).toMatchObject({ code: 1000, by: 'client' });
    expect(await session.record.ended).toBe('aborted');
    expect(client.messages).toHaveLength(1);
  });

  it('holds messages for firstChunkDelayMs / chunkGapMs through the injected delay', async () => {
    const time = createManualDelay();
    const { url } = await serve({
      transcript: 'a b',
      wordMs: 100,
      inactivityTimeoutMs: 0,
      delay: time.delay,
      script: { listen: { firstChunkDelayMs: 300, chunkGapMs: 40 } },
    });
    const client = await openClient(url(), auth);
    client.ws.send(audio(100));
    expect(await time.release()).toBe(300);
    await client.until(1);
    client.ws.send(audio(100));
    expect(await time.release()).toBe(40);
    await client.until(2);
    expect(client.messages).toHaveLength(2);
    client.ws.close();
  });
});
