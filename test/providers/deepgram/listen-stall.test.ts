import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/errors/index.js';
import { isRouterStall, STALL_TOLERANCE_MS } from '../../../src/internal/stall.js';
import { ListenSession } from '../../../src/providers/deepgram/listen-session.js';
import type { WebSocketConnection } from '../../../src/transport/websocket-types.js';
import { BlockableClock } from '../../routing/blockable-clock.js';

/** A listen socket that takes every frame and never answers. */
function silentSocket(sent: Array<string | Uint8Array>): WebSocketConnection {
  return {
    send: (data: string | Uint8Array) => {
      sent.push(data);
      return true;
    },
    messages: () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<never>(() => {}),
        return: async () => ({ done: true as const, value: undefined }),
      }),
    }),
    close: () => {},
    isOpen: true,
    closed: new Promise(() => {}),
    bufferedAmount: 0,
  } as unknown as WebSocketConnection;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A session whose audio (one piece) has ended, its reader waiting for the server's answer. */
async function waitingSession() {
  const clock = new BlockableClock();
  const sent: Array<string | Uint8Array> = [];
  const session = new ListenSession(silentSocket(sent), {
    provider: 'dg',
    clock,
    keepAliveIntervalMs: 0,
    closeWaitMs: 100,
    signal: new AbortController().signal,
  });
  session.pump(
    (async function* () {
      yield new Uint8Array(320);
    })(),
  );
  for (let i = 0; i < 5 && !session.closeStreamSent; i++) await turn();
  const outcome: { error?: unknown } = {};
  const reading = session.messages()[Symbol.asyncIterator]().next();
  reading.then(
    () => {},
    (error: unknown) => {
      outcome.error = error;
    },
  );
  await turn();
  return { clock, sent, session, outcome };
}

describe('Deepgram listen: the wait after CloseStream and the router stall', () => {
  it('a wait that passes while the event loop is blocked gets one more turn, then fails marked as our stall', async () => {
    const { clock, sent, session, outcome } = await waitingSession();
    expect(sent.slice(1)).toEqual(['{"type":"Finalize"}', '{"type":"CloseStream"}']);
    clock.block(100 + STALL_TOLERANCE_MS + 200);
    clock.advance(0); // fires late: one more turn, so that deadlines due earlier go first
    await turn();
    expect(outcome).toEqual({});
    clock.advance(0);
    await turn();
    expect(TimeoutError.isInstance(outcome.error)).toBe(true);
    expect((outcome.error as TimeoutError).phase).toBe('idle');
    expect(isRouterStall(outcome.error)).toBe(true);
    session.stop();
  });

  it('a wait that passes on time fails at once, charged to the provider (control)', async () => {
    const { clock, session, outcome } = await waitingSession();
    clock.advance(100);
    await turn();
    expect((outcome.error as TimeoutError).phase).toBe('idle');
    expect(isRouterStall(outcome.error)).toBe(false);
    session.stop();
  });
});
