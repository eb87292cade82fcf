/**
 * What one cell opens on the server side, closed at the end of the cell (before its handle
 * check), and the client sockets the code under test opened meanwhile.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export { deferred } from '../../helpers/deferred.js';

/** Server-side resources of one cell. */
export class Scope {
  readonly #closers: Array<() => Promise<void>> = [];

  /** Registers `close` to run (last registered first) when the cell ends. */
  add(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.#closers.splice(0).reverse()) await close();
  }
}

/**
 * Every client TCP socket created (net.connect, through any library) until `stop()`, in
 * `sockets` as they come: Node publishes each on the `net.client.socket` diagnostics channel.
 */
export function trackClientSockets(): { sockets: readonly Socket[]; stop(): Socket[] } {
  const sockets: Socket[] = [];
  const onSocket = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
  subscribe('net.client.socket', onSocket);
  return {
    sockets,
    stop() {
      unsubscribe('net.client.socket', onSocket);
      return sockets;
    },
  };
}

/** A loopback URL where nothing listens (a port just released). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Listens on a free loopback port; the server's URL. */
export async function listenLoopback(server: {
  listen(port: number, host: string): unknown;
  address(): AddressInfo | string | null;
  once(event: 'listening', listener: () => void): unknown;
}): Promise<string> {
  const listening = new Promise<void>((resolve) => server.once('listening', resolve));
  server.listen(0, '127.0.0.1');
  await listening;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Destroys `sockets` and resolves once every one of them has emitted `close`. */
export async function destroyAll(
  sockets: Iterable<{
    destroy(): void;
    destroyed: boolean;
    closed?: boolean;
    once(event: 'close', listener: () => void): unknown;
  }>,
): Promise<void> {
  await Promise.all(
    [...sockets].map((socket) => {
      if (socket.closed) return undefined;
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.destroy();
      return closed;
    }),
  );
}
