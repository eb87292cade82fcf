/**
 * A Deepgram listen socket closed with 1011 NET-0001 while the caller's audio was flowing is not
 * an inactivity close (Deepgram sends NET-0001 after about 10 s without audio): it is an ordinary
 * retryable failure, and the route falls back at once, with no reconnect to the same provider
 * and no replay to it. After a quiet spell the same close is an inactivity close (see C13). The
 * servers speak the wire on their own (loopback `ws` and node:http); the router's clock skips
 * the quiet spells.
 */
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import { Feed, FORMAT, listenServer, SECOND } from './wire/listen-server.js';
import { drain, httpServer, multipart, readBody, router, wavData } from './wire/servers.js';
import { SkippingClock } from './wire/skipping-clock.js';

const deepgram = (url: string) => ({
  kind: 'deepgram' as const,
  baseUrl: url,
  apiKey: 'dg-test-key-0123456789',
  stt: { model: 'nova-3', keepAliveIntervalMs: 0 },
});

/** Batch B: records the PCM of each upload and answers `from B`. */
async function batchB() {
  const uploads: Buffer[] = [];
  const server = await httpServer(async (req, res) => {
    const body = await readBody(req);
    uploads.push(wavData(multipart(req.headers['content-type'], body).get('file')!).data);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"text":"from B"}');
  });
  return { server, uploads };
}

function stt(providers: RouterConfig['providers'], order: string[], clock: SkippingClock) {
  return router(
    { providers, routes: { stt: { providers: order, strategy: 'priority', midStream: 'replay' } } },
    { clock },
  );
}

/** Opens the call and waits until Deepgram heard `ms` of the caller's audio (level 1). */
async function heard(
  r: ReturnType<typeof router>,
  server: Awaited<ReturnType<typeof listenServer>>,
  ms: number,
) {
  const feed = new Feed();
  const stream = r.stt({ audio: feed, format: FORMAT });
  const result = drain(stream);
  feed.push(ms, 1);
  await server.until(() => server.sessions[0]?.bytes === (ms / 1000) * SECOND);
  return { feed, stream, result };
}

describe('STT NET-0001 while audio flows: an ordinary failure, not an inactivity close', () => {
  it('falls back at once: one Deepgram socket, no replay to it, B gets the whole audio', async () => {
    const clock = new SkippingClock();
    const dg = await listenServer();
    const b = await batchB();
    const r = stt(
      {
        a: deepgram(dg.url),
        b: {
          kind: 'openai-compatible',
          baseUrl: `${b.server.url}/v1`,
          stt: { model: 'w', streaming: false },
        },
      },
      ['a', 'b'],
      clock,
    );
    const { feed, stream, result } = await heard(r, dg, 300);
    // 4 s since the last audio: within Deepgram's window, so not about inactivity.
    clock.skip(4_000);
    dg.idleClose(0);
    await dg.until(() => dg.sessions[0]!.ws.readyState === 3);
    feed.push(700, 2);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', 'from B']]);
    expect(dg.sessions.map((s) => s.bytes)).toEqual([300 * 32]);
    expect(b.uploads.map((u) => u.byteLength)).toEqual([SECOND]);
    expect(b.uploads[0]!.subarray(0, 300 * 32).every((x) => x === 1)).toBe(true);
    expect(b.uploads[0]!.subarray(300 * 32).every((x) => x === 2)).toBe(true);
    const done = await stream.result;
    expect(done.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it('alone on its route: the call fails with the typed close, after one socket (no reconnect)', async () => {
    const clock = new SkippingClock();
    const dg = await listenServer();
    const r = stt({ a: deepgram(dg.url) }, ['a'], clock);
    const { feed, result } = await heard(r, dg, 300);
    dg.idleClose(0);
    await dg.until(() => dg.sessions[0]!.ws.readyState === 3);
    feed.end();
    const { items, error } = await result;
    expect(items).toEqual([]);
    expect((error as Error).name).toBe('AllProvidersFailedError');
    const cause = (error as { attempts: Array<{ error: Record<string, unknown> }> }).attempts[0]!.error;
    expect([cause.name, cause.status, cause.providerCode, cause.retryable, cause.idleTimeout]).toEqual([
      'ProviderError',
      1011,
      'NET-0001',
      true,
      false,
    ]);
    expect(dg.sessions.map((s) => s.bytes)).toEqual([300 * 32]);
  });

  it('after 5 s without audio the same close is an inactivity close: a new socket for the next audio', async () => {
    const clock = new SkippingClock();
    const dg = await listenServer();
    const r = stt({ a: deepgram(dg.url) }, ['a'], clock);
    const { feed, result } = await heard(r, dg, 300);
    clock.skip(5_000);
    dg.idleClose(0);
    await dg.until(() => dg.sessions[0]!.ws.readyState === 3);
    feed.push(700, 2);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    expect(items.map((e) => [e.type, e.text])).toEqual([['final', `heard ${SECOND} bytes`]]);
    // The second socket heard the 300 ms again (no final covered them), then the rest.
    expect(dg.sessions.map((s) => s.bytes)).toEqual([300 * 32, SECOND]);
  });
});
