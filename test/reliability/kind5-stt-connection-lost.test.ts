/**
 * Kind 5, wrong classification: a Deepgram listen socket lost during a silence (TCP dropped
 * with no close frame, as a load balancer or NAT does to a connection it finds idle: close
 * 1006; or a close 1001 going away) is the same fault as Deepgram's own inactivity close (1011
 * NET-0001): stt() reconnects to the same provider for the caller's next audio and replays the
 * audio since the last final, on the caller's timeline. With speech still waiting for a final,
 * the loss is a mid-stream failure under the route's `midStream` rule: the next provider hears
 * the audio since the last final. Servers speak the listen wire on their own (loopback `ws`);
 * the test waits for the client to see each drop (its WebSocket's `close` event) before it
 * sends more audio, so no clock runs.
 */
import { WebSocket as UndiciWebSocket } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RouterConfig } from '../../src/index.js';
import {
  expectAfterOneMoreSecond,
  expectNextSecondOnNewSocket,
  Feed,
  FORMAT,
  listenServer,
  SECOND,
  summary,
} from '../cases/wire/listen-server.js';
import { drain, router } from '../cases/wire/servers.js';

/** undici's WebSocket, recording each client socket's `close` event. */
function recordingWebSocket() {
  const closes: Array<Promise<void>> = [];
  class Recording extends UndiciWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      closes.push(new Promise((resolve) => this.addEventListener('close', () => resolve())));
    }
  }
  return {
    WebSocket: Recording as unknown as typeof globalThis.WebSocket,
    /** Resolves once client socket `n` fired `close` and the router has had its turn to react. */
    closed: async (n: number) => {
      await closes[n];
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

function provider(url: string) {
  // Keep-alive off: no frame flows during the silence, as when a NAT finds the connection idle.
  return {
    kind: 'deepgram',
    baseUrl: url,
    apiKey: 'dg-test-key-0123456789',
    stt: { model: 'nova-3', keepAliveIntervalMs: 0 },
  } as const;
}

function setup(urls: string[], midStream: 'replay' | 'error', WebSocket: typeof globalThis.WebSocket) {
  const names = urls.map((_, i) => `dg${i + 1}`);
  const config = {
    providers: Object.fromEntries(urls.map((url, i) => [names[i], provider(url)])),
    routes: { stt: { providers: names, strategy: 'priority', midStream } },
  } as RouterConfig;
  return router(config, { WebSocket });
}

/**
 * A route over `count` listen servers, on which the first server hears 1 s of speech (level 1)
 * and sends its final, then, when `pending` is given, half a second more at that level (0:
 * digital silence), and then loses its socket as `how`. Resolves once the client saw the drop.
 */
async function lostAfterFinal(options: {
  count: number;
  midStream: 'replay' | 'error';
  how: 'drop' | 'go away';
  pending?: number;
}) {
  const servers = await Promise.all(Array.from({ length: options.count }, () => listenServer()));
  const first = servers[0]!;
  const ws = recordingWebSocket();
  const feed = new Feed();
  const urls = servers.map((s) => s.url);
  const stream = setup(urls, options.midStream, ws.WebSocket).stt({ audio: feed, format: FORMAT });
  const result = drain(stream);
  feed.push(1000, 1);
  await first.until(() => first.sessions[0]?.bytes === SECOND);
  first.final(0);
  if (options.pending !== undefined) {
    feed.push(500, options.pending);
    await first.until(() => first.sessions[0]!.bytes === SECOND + SECOND / 2);
  }
  first.lose(0, options.how);
  await ws.closed(0);
  return { servers, feed, stream, result };
}

describe('kind 5: an STT socket lost during a silence is an idle close, not a failure', () => {
  it.each([
    ['dropped with no close frame (1006)', 'drop'],
    ['closed 1001 going away', 'go away'],
  ] as const)(
    'a final, the socket %s during the silence, 1 s more: the same provider hears it on a new socket',
    async (_, how) => {
      const { servers, feed, stream, result } = await lostAfterFinal({ count: 1, midStream: 'replay', how });
      const server = servers[0]!;
      // No socket opens before the caller's next audio.
      expect(server.sessions).toHaveLength(1);
      await expectNextSecondOnNewSocket(server, feed, result);
      const done = await stream.result;
      expect(done.attempts.map((x) => [x.provider, x.outcome])).toEqual([['dg1', 'success']]);
    },
  );

  it('only digital silence since the last final is nothing pending: reconnect, and the silence is replayed', async () => {
    const { servers, feed, result } = await lostAfterFinal({
      count: 1,
      midStream: 'error',
      how: 'drop',
      pending: 0,
    });
    await expectAfterOneMoreSecond(feed, result, [
      ['final', 'heard 32000 bytes', 0, 1000],
      ['final', 'heard 48000 bytes', 1000, 2500],
    ]);
    expect(servers[0]!.sessions.map((s) => s.bytes)).toEqual([SECOND + SECOND / 2, SECOND + SECOND / 2]);
  });

  it('speech waiting for a final when the socket drops: midStream replay moves to the next provider, which hears it again', async () => {
    const { servers, feed, stream, result } = await lostAfterFinal({
      count: 2,
      midStream: 'replay',
      how: 'drop',
      pending: 3,
    });
    const [first, second] = servers as [(typeof servers)[0], (typeof servers)[0]];
    await second.until(() => second.sessions[0]?.bytes === SECOND / 2);
    await expectAfterOneMoreSecond(feed, result, [
      ['final', 'heard 32000 bytes', 0, 1000],
      ['final', 'heard 48000 bytes', 1000, 2500],
    ]);
    // The first provider was not reconnected; the second heard the half second since the final.
    expect(first.sessions).toHaveLength(1);
    expect(second.sessions.map((s) => s.bytes)).toEqual([SECOND + SECOND / 2]);
    const done = await stream.result;
    const attempts = done.attempts.map((x) => [x.provider, x.outcome]);
    expect(attempts).toEqual([
      ['dg1', 'failed'],
      ['dg2', 'success'],
    ]);
  });

  it("speech waiting for a final, midStream 'error': the drop is thrown as a mid-stream failure, typed connectionLost", async () => {
    const { servers, feed, result } = await lostAfterFinal({
      count: 1,
      midStream: 'error',
      how: 'drop',
      pending: 3,
    });
    feed.end();
    const { items, error } = await result;
    expect(summary(items)).toEqual([['final', 'heard 32000 bytes', 0, 1000]]);
    const cause = (error as { cause?: Record<string, unknown> }).cause!;
    expect([(error as Error).name, (error as { partialText?: string }).partialText]).toEqual([
      'MidStreamError',
      'heard 32000 bytes',
    ]);
    expect([cause.name, cause.status, cause.retryable, cause.connectionLost, cause.idleTimeout]).toEqual([
      'ProviderError',
      1006,
      true,
      true,
      false,
    ]);
    expect(servers[0]!.sessions).toHaveLength(1);
  });
});
