import type { ServerResponse } from 'node:http';

/**
 * Writes `data` to `res` and, when the socket's buffer is full (`write` returned false), waits
 * for `drain`, or for `close` if the client goes away first. Writes nothing to a destroyed or
 * ended response. Leaves no listener behind.
 */
export async function writeWithBackpressure(res: ServerResponse, data: Uint8Array | string): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  if (res.write(data)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
