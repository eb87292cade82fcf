/**
 * When a cell may let time pass. The router runs on a fake clock (wire/run.ts), so its deadlines
 * fire only when the cell advances it; before doing so the cell waits until the loopback
 * network is quiet: the server has written all it will write (its `doneWriting` signal), every
 * byte either side wrote has been read by the other, and the client has had two turns of the
 * event loop to act on it. Time passing then finds the provider silent, as the fault says, on a
 * loaded machine as on an idle one (no bytes still in flight when a deadline fires).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Every server-side TCP socket accepted (by any server) until `stop()`. */
export function trackServerSockets(): { sockets: Socket[]; stop(): void } {
  const sockets: Socket[] = [];
  const onSocket = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
  subscribe('net.server.socket', onSocket);
  return { sockets, stop: () => unsubscribe('net.server.socket', onSocket) };
}

/** Bytes each socket of the cell has read and written, as one comparable line. */
function counts(sockets: readonly Socket[]): string {
  return sockets.map((s) => `${s.bytesRead}/${s.bytesWritten}`).join(' ');
}

/**
 * True when every open client socket has read all its server peer wrote and the other way
 * round. A socket's `bytesWritten` includes bytes still queued in it, so a write the server
 * made counts from the moment it made it. Peers pair by port (loopback on both sides).
 */
function balanced(clients: readonly Socket[], servers: readonly Socket[]): boolean {
  return clients.every((client) => {
    if (client.destroyed) return true; // the client reads nothing more
    const server = servers.find((s) => s.remotePort === client.localPort);
    if (!server) return true; // not connected to a server of this cell
    return client.bytesRead === server.bytesWritten && server.bytesRead === client.bytesWritten;
  });
}

/**
 * Resolves once `written` has resolved and the network is quiet: every client socket balanced
 * with its server peer, with no byte count moving, for two turns in a row (HTTP/2 hands its
 * frames to the socket one turn after a write).
 */
export async function quiet(
  written: Promise<void>,
  clients: readonly Socket[],
  servers: readonly Socket[],
): Promise<void> {
  await written;
  let still = 0;
  let last = '';
  while (still < 2) {
    await nextTurn();
    const now = counts([...clients, ...servers]);
    still = now === last && balanced(clients, servers) ? still + 1 : 0;
    last = now;
  }
}
