/**
 * An abort followed by a `break`: the usual barge-in handler aborts the call's signal and leaves
 * its loop in the same step (`controller.abort(reason); break;`), or the app shuts down during
 * playback (`router.close()` while the loop holds a chunk, then leaves it). The abort came
 * first, so it decides how the call ended: `result` rejects with AbortError (the signal's
 * reason as `cause`, `partialOutput: true`), or 'The router was closed', as it does when the
 * loop goes on to its next step, and as `result` read before the stream was iterated does.
 * Before the fix the `break`, a step later than the abort but before the call had taken the
 * abort in, made `result` resolve as after a plain `break`: whether the caller's reason came
 * back depended on whether the loop awaited anything between the two. A `break` that comes
 * first stays a `break` (`result` resolves, the attempt marked `aborted`).
 *
 * The server speaks OpenAI's speech wire on its own (node:http): one chunk of audio, then the
 * answer stays open; each case checks that the server saw the request end.
 */
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AbortError, type RouteResult, type RouterConfig } from '../../src/index.js';
import { type HttpWire, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

const AUDIO = pcmSignal(960, 24_000);

/** Answers 200 and one chunk, then holds the answer open; resolves `ended` when the request closes. */
async function speechServer(): Promise<{ wire: HttpWire; ended: Promise<unknown> }> {
  let closed!: Promise<unknown>;
  const wire = await httpServer(async (req: IncomingMessage, res: ServerResponse) => {
    closed = once(res, 'close');
    await readBody(req);
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    res.write(AUDIO);
  });
  return {
    wire,
    get ended() {
      return closed;
    },
  };
}

const config = (url: string): RouterConfig =>
  ({
    providers: { a: { kind: 'openai-compatible', baseUrl: `${url}/v1`, tts: { voices: { agent: 'v' } } } },
    routes: { tts: { providers: ['a'], strategy: 'priority' } },
  }) as RouterConfig;

/** How `result` settled: the RouteResult, or the error. */
function settled(result: Promise<RouteResult>): Promise<{ resolved: RouteResult } | { rejected: unknown }> {
  return result.then(
    (resolved) => ({ resolved }),
    (rejected: unknown) => ({ rejected }),
  );
}

describe('an abort, then a break: the abort decides the call', () => {
  it("the caller's signal aborts, then the loop breaks: result rejects with AbortError and the reason", async () => {
    const server = await speechServer();
    const r = router(config(server.wire.url));
    const controller = new AbortController();
    const reason = new Error('the user spoke');
    const stream = r.tts({ text: 'Hello there.', voice: 'agent', signal: controller.signal });
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += chunk.data.byteLength > 0 ? 1 : 0;
      controller.abort(reason);
      break;
    }
    expect(chunks).toBe(1);
    const outcome = await settled(stream.result);
    expect('rejected' in outcome).toBe(true);
    const error = (outcome as { rejected: AbortError }).rejected;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(error.message).toBe('The call was aborted');
    expect(error.cause).toBe(reason);
    expect(error.partialOutput).toBe(true);
    await server.ended;
    expect(r.stats().providers.map((p) => [p.provider, p.errors, p.inFlight, p.breaker])).toEqual([
      ['a', 0, 0, 'closed'],
    ]);
  });

  it('router.close() while the loop holds a chunk, then the loop breaks: result rejects, the router was closed', async () => {
    const server = await speechServer();
    const r = router(config(server.wire.url));
    const stream = r.tts({ text: 'Hello there.', voice: 'agent' });
    let closing: Promise<void> | undefined;
    for await (const _ of stream) {
      closing = r.close();
      break;
    }
    await closing;
    const outcome = await settled(stream.result);
    expect('rejected' in outcome).toBe(true);
    const error = (outcome as { rejected: AbortError }).rejected;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(error.message).toBe('The router was closed');
    await server.ended;
  });

  it('the signal aborted before return() with no next(): result rejects as when read before', async () => {
    const server = await speechServer();
    const r = router(config(server.wire.url));
    const controller = new AbortController();
    const reason = new Error('the user spoke');
    const stream = r.tts({ text: 'Hello there.', voice: 'agent', signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    controller.abort(reason);
    expect(await iterator.return!()).toEqual({ done: true, value: undefined });
    const outcome = await settled(stream.result);
    expect('rejected' in outcome).toBe(true);
    const error = (outcome as { rejected: AbortError }).rejected;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(error.cause).toBe(reason);
    expect(server.wire.hits).toBe(0);
  });

  it('a break first, then the abort: a break (result resolves, the attempt marked aborted)', async () => {
    const server = await speechServer();
    const r = router(config(server.wire.url));
    const controller = new AbortController();
    const stream = r.tts({ text: 'Hello there.', voice: 'agent', signal: controller.signal });
    for await (const _ of stream) break;
    controller.abort(new Error('too late'));
    const outcome = await settled(stream.result);
    expect('resolved' in outcome).toBe(true);
    const result = (outcome as { resolved: RouteResult }).resolved;
    expect([result.provider, result.attempts.map((a) => [a.provider, a.outcome])]).toEqual([
      'a',
      [['a', 'aborted']],
    ]);
    await server.ended;
  });
});
