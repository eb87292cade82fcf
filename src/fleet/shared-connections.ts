import { connectFleet, type FleetConnections } from './redis-client.js';

/**
 * One router's use of its process's fleet connections to a Redis URL (see {@link leaseFleet}).
 */
export interface FleetLease {
  /** The two connections, shared by every lease of the URL in the process. */
  conn: FleetConnections;
  /**
   * Subscribes the shared subscriber to `channel` (each call sends SUBSCRIBE: after a reconnect
   * it must be sent again). The channel stays subscribed until every lease that asked for it is
   * released; after this lease's release it does nothing. Rejects as the client does (not
   * connected, timed out).
   */
  subscribe(channel: string): Promise<unknown>;
  /**
   * Ends the lease (a second call does nothing): its channels no other lease uses are
   * unsubscribed, and the last lease of the URL closes both connections.
   */
  release(): void;
}

interface Entry {
  conn: Promise<FleetConnections>;
  leases: number;
  /** Leases per subscribed channel. */
  channels: Map<string, number>;
}

/** Connections per connect function (tests pass their own) and URL. */
const pools = new WeakMap<(url: string) => Promise<FleetConnections>, Map<string, Entry>>();

/**
 * Leases the process's two fleet connections to `url`, opening them (with `connect`, default
 * {@link connectFleet}) for the first lease. Routers of one process share them: a process that
 * makes a router per tenant or per test holds two connections per URL, not two per router (a
 * managed Redis may allow a few dozen clients, and they are the app's too). Rejects as `connect`
 * does (ioredis not installed); a failed connect is not kept, so a later lease tries again.
 */
export async function leaseFleet(
  url: string,
  connect: (url: string) => Promise<FleetConnections> = connectFleet,
): Promise<FleetLease> {
  let byUrl = pools.get(connect);
  if (!byUrl) {
    byUrl = new Map();
    pools.set(connect, byUrl);
  }
  const pool = byUrl;
  let entry = pool.get(url);
  if (!entry) {
    const made: Entry = { conn: open(url, connect), leases: 0, channels: new Map() };
    made.conn.catch(() => {
      if (pool.get(url) === made) pool.delete(url);
    });
    pool.set(url, made);
    entry = made;
  }
  const shared = entry;
  shared.leases++;
  let conn: FleetConnections;
  try {
    conn = await shared.conn;
  } catch (error) {
    shared.leases--;
    throw error;
  }
  const own = new Set<string>();
  let released = false;
  return {
    conn,
    subscribe(channel) {
      // A resync still running when its router closed: no subscription nobody would end.
      if (released) return Promise.resolve();
      if (!own.has(channel)) {
        own.add(channel);
        shared.channels.set(channel, (shared.channels.get(channel) ?? 0) + 1);
      }
      return conn.subscriber.subscribe(channel);
    },
    release() {
      if (released) return;
      released = true;
      shared.leases--;
      if (shared.leases === 0) {
        if (pool.get(url) === shared) pool.delete(url);
        conn.commands.disconnect();
        conn.subscriber.disconnect();
        return;
      }
      for (const channel of own) {
        const left = (shared.channels.get(channel) ?? 1) - 1;
        if (left > 0) shared.channels.set(channel, left);
        else {
          shared.channels.delete(channel);
          // Fire and forget: a subscriber that is not connected has no subscription to end.
          conn.subscriber.unsubscribe(channel).catch(() => {});
        }
      }
    },
  };
}

async function open(url: string, connect: (url: string) => Promise<FleetConnections>) {
  const conn = await connect(url);
  for (const client of [conn.commands, conn.subscriber]) {
    // Every router of the process listens to both clients (error, close, ready, message).
    client.setMaxListeners(0);
    // Each lease reports errors through its own listener while it lasts; this one keeps an
    // error that comes when none is left (a socket failing as it closes) from being printed
    // by ioredis as unhandled.
    client.on('error', () => {});
  }
  return conn;
}
