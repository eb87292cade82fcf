/**
 * C13: Deepgram closes a listen socket that received nothing within its inactivity window
 * (1011 NET-0001). If it closes anyway (keep-alive off here: the case's "not honoured"), the
 * adapter raises a retryable ProviderError with `idleTimeout`, and stt() reconnects to the same
 * provider for the caller's next audio, replaying the audio since the last final: the call
 * goes on and no word is lost. The server speaks the listen wire on its own (loopback `ws`);
 * it closes for inactivity on the test's command, after the router's clock skipped the "10 s
 * without a frame" (the adapter reads an inactivity close only after a quiet spell).
 */
import { describe, expect, it } from 'vitest';
import {
  expectNextSecondOnNewSocket,
  Feed,
  FORMAT,
  listenServer,
  SECOND,
  summary,
} from './wire/listen-server.js';
import { drain, router } from './wire/servers.js';
import { SkippingClock } from './wire/skipping-clock.js';

/** The routers' clock: each idle close below comes after it skipped Deepgram's 10 s window. */
const clock = new SkippingClock();

function setup(url: string) {
  return router(
    {
      providers: {
        dg: {
          kind: 'deepgram',
          baseUrl: url,
          apiKey: 'dg-test-key-0123456789',
          // Keep-alive off: the server's inactivity close is what this case is about.
          stt: { model: 'nova-3', keepAliveIntervalMs: 0 },
        },
      },
      routes: { stt: { providers: ['dg'], strategy: 'priority', midStream: 'replay' } },
    },
    { clock },
  );
}

/**
 * A listen server and a call to it (`result` drains it) that has sent 1 s of audio (level 1),
 * all of it heard by the server.
 */
async function oneSecondHeard() {
  const server = await listenServer();
  const feed = new Feed();
  const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
  const result = drain(stream);
  feed.push(1000, 1);
  await server.until(() => server.sessions[0]?.bytes === SECOND);
  return { server, feed, stream, result };
}

/** Lets 10 s of silence pass, closes session `n` for inactivity and waits until its socket is closed. */
async function idleClosed(server: Awaited<ReturnType<typeof listenServer>>, n: number): Promise<void> {
  clock.skip(10_000);
  server.idleClose(n);
  await server.until(() => server.sessions[n]!.ws.readyState === 3);
}

describe('C13: the STT socket closed for inactivity (1011 NET-0001)', () => {
  it('1 s of audio, an idle close during the silence, 1 s more: a new socket hears both seconds and the call goes on', async () => {
    const { server, feed, stream, result } = await oneSecondHeard();
    await idleClosed(server, 0);
    // No socket opens before the caller's next audio.
    expect(server.sessions).toHaveLength(1);
    feed.push(1000, 2);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    // The second socket heard the first second again (no final had covered it), then the last.
    expect(summary(items)).toEqual([['final', 'heard 64000 bytes', 0, 2000]]);
    expect(server.sessions.map((s) => s.bytes)).toEqual([SECOND, 2 * SECOND]);
    expect(server.sessions[1]!.texts).toEqual(['{"type":"Finalize"}', '{"type":"CloseStream"}']);
    const done = await stream.result;
    expect(done.attempts.map((x) => [x.provider, x.outcome])).toEqual([['dg', 'success']]);
  });

  it('after a final, only the audio since it is replayed, and the new final is on the caller timeline', async () => {
    const { server, feed, result } = await oneSecondHeard();
    server.final(0);
    await idleClosed(server, 0);
    await expectNextSecondOnNewSocket(server, feed, result);
  });

  it('an idle close with nothing waiting for a final, then the end of the audio: the call ends, no new socket', async () => {
    const { server, feed, result } = await oneSecondHeard();
    server.final(0);
    await idleClosed(server, 0);
    feed.end();
    const { items, error } = await result;
    expect(error).toBeUndefined();
    expect(summary(items)).toEqual([['final', 'heard 32000 bytes', 0, 1000]]);
    expect(server.sessions).toHaveLength(1);
  });

  it('a server that closes every socket for inactivity: after 3 reconnects the typed retryable close is thrown', async () => {
    const server = await listenServer();
    const feed = new Feed();
    const stream = setup(server.url).stt({ audio: feed, format: FORMAT });
    const result = drain(stream);
    for (let n = 0; n < 4; n++) {
      feed.push(100, n + 1);
      await server.until(() => server.sessions[n]?.bytes === (n + 1) * 3200);
      await idleClosed(server, n);
    }
    feed.push(100, 9);
    const { items, error } = await result;
    expect(items).toEqual([]);
    expect(server.sessions).toHaveLength(4);
    const cause = (error as { attempts?: Array<{ error?: unknown }> }).attempts?.[0]?.error as {
      name: string;
      status: number;
      providerCode: string;
      retryable: boolean;
      idleTimeout: boolean;
    };
    expect((error as Error).name).toBe('AllProvidersFailedError');
    expect([cause.name, cause.status, cause.providerCode, cause.retryable, cause.idleTimeout]).toEqual([
      'ProviderError',
      1011,
      'NET-0001',
      true,
      true,
    ]);
    feed.end();
  });
});
