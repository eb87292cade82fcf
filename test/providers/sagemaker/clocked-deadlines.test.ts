/**
 * The response stream's connect deadline (our HTTP agents) and its error-body bound run on the
 * router's clock, as its other deadlines do: with a fake clock they pass when the test moves
 * it, exactly at their length, never because the machine is slow. The endpoint is a loopback
 * server of its own (node:http); the call goes through the AWS SDK.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  ProviderError,
  type RouterConfig,
  TimeoutError,
} from '../../../src/index.js';
import { httpServer, readBody, router } from '../../cases/wire/servers.js';
import { deferred } from '../../helpers/deferred.js';
import { FakeClock } from '../../transport/fake-clock.js';

const subscriptions: Array<() => void> = [];
afterEach(() => {
  for (const stop of subscriptions.splice(0)) stop();
});

/** Runs `fn` on every message of diagnostics channel `name` until the test ends. */
function onChannel(name: string, fn: () => void): void {
  subscribe(name, fn);
  subscriptions.push(() => unsubscribe(name, fn));
}

function config(url: string): RouterConfig {
  return {
    providers: {
      sm: {
        kind: 'sagemaker',
        region: 'us-east-1',
        endpointName: 'tts',
        endpointUrl: url,
        credentials: { accessKeyId: 'AKIDCLOCKTEST', secretAccessKey: 'clock-test-secret-key' },
        tts: { payload: 'raw-pcm', voices: { agent: 'v' }, sampleRate: 24_000 },
      },
    },
    routes: {
      tts: { providers: ['sm'], strategy: 'priority', connectTimeoutMs: 1_000, firstChunkTimeoutMs: 30_000 },
    },
  };
}

/** The error the call ends with (undefined: it ended normally). */
async function failure(stream: AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const _ of stream);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('SageMaker response stream deadlines on the router clock', () => {
  it('the connect deadline passes when the clock reaches connectTimeoutMs, not before', async () => {
    let hits = 0;
    const server = await httpServer(async (req, res) => {
      hits++;
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' }).end();
    });
    const clock = new FakeClock();
    const early = deferred<number>();
    // The client socket exists (its connect not yet seen, that takes a turn of I/O) and our
    // agent set its deadline in the same synchronous step: move the clock in between.
    onChannel('net.client.socket', () =>
      queueMicrotask(() => {
        clock.advance(999);
        early.resolve(clock.pending);
        clock.advance(1);
      }),
    );
    const r = router(config(server.url), { clock });
    const error = await failure(r.tts({ text: 'Hi.', voice: 'agent' }));
    expect(await early.promise, 'the connect deadline still pending at 999 ms').toBeGreaterThan(0);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const cause = (error as AllProvidersFailedError).attempts[0]?.error;
    expect(cause).toBeInstanceOf(TimeoutError);
    expect([(cause as TimeoutError).phase, (cause as TimeoutError).timeoutMs]).toEqual(['connect', 1_000]);
    expect(hits).toBe(0);
  });

  it('an error body that stalls is given up when the clock reaches 1000 ms; the status decides', async () => {
    const server = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(503, { 'content-type': 'application/json', 'x-amzn-errortype': 'ServiceUnavailable' });
      res.write('{"message":"overlo'); // and nothing more
    });
    const clock = new FakeClock();
    const response = deferred();
    onChannel('http.client.response.finish', () => response.resolve());
    const r = router(config(server.url), { clock });
    let ended = false;
    const ending = failure(r.tts({ text: 'Hi.', voice: 'agent' })).finally(() => {
      ended = true;
    });
    await response.promise;
    // The SDK's middleware takes the status and wraps the body within promise callbacks.
    await nextTurn();
    await nextTurn();
    clock.advance(999);
    await nextTurn();
    await nextTurn();
    expect(ended, 'the call ended before the error-body bound').toBe(false);
    clock.advance(1);
    // No I/O is left to wait for: the call ends within a few turns of the event loop.
    for (let turn = 0; turn < 20 && !ended; turn++) await nextTurn();
    expect(ended, 'the call ended once the clock reached the error-body bound').toBe(true);
    const error = await ending;
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    const cause = (error as AllProvidersFailedError).attempts[0]?.error;
    expect(ProviderError.isInstance(cause)).toBe(true);
    expect((cause as ProviderError).status).toBe(503);
  });
});
