/**
 * The mock server sends a mock's web Response on node:http (sendWebResponse). When it stops
 * before the body's end (a write fails because the client reset the connection, or the
 * response is already destroyed), it cancels the body, so the mock learns the client went
 * away and records the request as aborted. Before, only a 'close' listener did that, and it was
 * removed when sending stopped: a 'close' that came after it (a write failed first) reached no
 * one, and the request stayed 'pending' whenever the web Request's own signal did not follow
 * (it follows only while the Request is reachable), so `record.ended` never settled (seen as a
 * rare hang of a barge-in test under load).
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sendWebResponse } from '../../src/testing/node-adapter.js';

/** A node:http response whose writes fail as after a connection reset; 'close' comes later. */
function resetResponse(destroyed: boolean) {
  const res = Object.assign(new EventEmitter(), {
    destroyed,
    writableFinished: false,
    socket: { destroyed: false, destroy() {} },
    writes: 0,
    writeHead() {},
    flushHeaders() {},
    write(_chunk: Uint8Array, callback: (error?: Error) => void) {
      res.writes++;
      queueMicrotask(() => callback(Object.assign(new Error('write ECONNRESET'), { code: 'ECONNRESET' })));
      return false;
    },
    end() {},
  });
  return res;
}

/** A pulled body of three chunks that counts its cancellations. */
function body() {
  const counts = { pulls: 0, cancels: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        counts.pulls++;
        controller.enqueue(new Uint8Array([counts.pulls]));
        if (counts.pulls === 3) controller.close();
      },
      cancel() {
        counts.cancels++;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counts };
}

describe('sendWebResponse stopping before the end of the body', () => {
  it('cancels the body when a write fails, whenever the response closes', async () => {
    const res = resetResponse(false);
    const { stream, counts } = body();
    await sendWebResponse(new Response(stream), res as unknown as ServerResponse);
    expect(res.writes).toBe(1);
    expect(counts.cancels).toBe(1);
    res.emit('close');
    expect(counts.cancels).toBe(1);
  });

  it('cancels the body when the response is destroyed between two chunks', async () => {
    const res = resetResponse(true);
    const { stream, counts } = body();
    await sendWebResponse(new Response(stream), res as unknown as ServerResponse);
    expect([res.writes, counts.pulls, counts.cancels]).toEqual([0, 1, 1]);
  });

  it('does not cancel a body sent to its end', async () => {
    const res = Object.assign(resetResponse(false), {
      write(_chunk: Uint8Array, callback: (error?: Error) => void) {
        res.writes++;
        queueMicrotask(() => callback());
        return true;
      },
    });
    const { stream, counts } = body();
    await sendWebResponse(new Response(stream), res as unknown as ServerResponse);
    expect([res.writes, counts.pulls, counts.cancels]).toEqual([3, 3, 0]);
  });
});
