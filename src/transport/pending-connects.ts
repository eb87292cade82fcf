import type { Socket } from 'node:net';

/** An undici connector: the `connect` function of a Client, Pool or Agent (`buildConnector()` builds one). */
export type Connector = ReturnType<typeof import('undici').buildConnector>;

/**
 * One request's wait for a connection, as {@link PendingConnects} follows it: created when the
 * request is dispatched, given the connect that undici opens for it, dropped once the request
 * has a connection (or failed).
 */
export interface ConnectClaim {
  /** `protocol//host[:port]` of the request, as undici's `connect` options give it. */
  readonly origin: string;
  /** The socket being connected for this request, while its TCP or TLS handshake is pending. */
  socket: Socket | undefined;
  /** True once the claim was released or cancelled: a connect opened later is not its. */
  done: boolean;
}

/**
 * The connects (TCP and TLS handshakes) under way on one undici connector, so that they can be
 * cut. undici's Client does not hold a socket before its handshake has finished: aborting a
 * request that waits for its connection, or destroying the Agent, leaves that handshake running
 * until the connector's own `timeout` (default 10 s). Against a server that accepts TCP but never
 * answers the TLS ClientHello (a hung TLS terminator), every such attempt would leave one open
 * connection behind for that long.
 *
 * {@link wrap} returns a connector that keeps each socket until its handshake settles. A request
 * {@link claim}s the connect undici opens for it: the one opened while it is being dispatched
 * (undici opens it synchronously there), else the next one opened for its origin (a streamed
 * body is dispatched a microtask later). {@link cancel} destroys a claim's pending socket;
 * {@link destroyAll} destroys every pending socket. A socket is destroyed with an error, which
 * undici then reports to the request waiting for it, as it does any failed connect; with
 * `pipelining: 1`, one connect serves exactly one request, so no other request sees it.
 */
export class PendingConnects {
  private readonly sockets = new Set<Socket>();
  /** Claims without a connect yet, per origin, oldest first. */
  private readonly waiting = new Map<string, Set<ConnectClaim>>();
  /** The claim of the request being dispatched right now (see {@link dispatching}). */
  private current: ConnectClaim | undefined;

  /** `connector`, with its pending sockets kept here. */
  wrap(connector: Connector): Connector {
    return (options, callback) => {
      let settled = false;
      let socket: Socket | undefined;
      let claim: ConnectClaim | undefined;
      const returned: unknown = (connector as (...args: unknown[]) => unknown)(
        options,
        (error: Error | null, connected: Socket | null) => {
          settled = true;
          if (socket) this.sockets.delete(socket);
          if (claim && claim.socket === socket) claim.socket = undefined;
          (callback as (error: Error | null, socket: Socket | null) => void)(error, connected);
        },
      );
      if (settled || !isSocket(returned)) return;
      socket = returned;
      this.sockets.add(socket);
      claim = this.claimFor(`${options.protocol}//${options.host ?? options.hostname}`);
      if (claim) {
        claim.socket = socket;
        this.forget(claim);
      }
    };
  }

  /** A claim of a request to `origin` (a URL's `origin`) waiting for its connection. */
  claim(origin: string): ConnectClaim {
    const claim: ConnectClaim = { origin, socket: undefined, done: false };
    let set = this.waiting.get(origin);
    if (set === undefined) {
      set = new Set();
      this.waiting.set(origin, set);
    }
    set.add(claim);
    return claim;
  }

  /** Runs `dispatch` with `claim` as the owner of any connect opened meanwhile. */
  dispatching(claim: ConnectClaim, dispatch: () => void): void {
    const outer = this.current;
    this.current = claim;
    try {
      dispatch();
    } finally {
      this.current = outer;
    }
  }

  /** The request has its connection, or failed: its claim is done, nothing is destroyed. */
  release(claim: ConnectClaim): void {
    claim.done = true;
    claim.socket = undefined;
    this.forget(claim);
  }

  /**
   * The request was aborted (by its caller or a deadline) before it had a connection: destroys
   * its connect if one is pending, with `reason` (which undici reports to the request).
   */
  cancel(claim: ConnectClaim, reason: Error): void {
    const socket = claim.socket;
    this.release(claim);
    if (socket && this.sockets.delete(socket)) socket.destroy(reason);
  }

  /** Destroys every pending connect with `reason` (the transport is closing). */
  destroyAll(reason: Error): void {
    const sockets = [...this.sockets];
    this.sockets.clear();
    this.waiting.clear();
    for (const socket of sockets) socket.destroy(reason);
  }

  /** Sockets whose handshake is pending (for tests). */
  get size(): number {
    return this.sockets.size;
  }

  private claimFor(origin: string): ConnectClaim | undefined {
    const current = this.current;
    if (current && !current.done && current.socket === undefined && current.origin === origin) return current;
    const set = this.waiting.get(origin);
    if (set === undefined) return undefined;
    for (const claim of set) if (claim !== current) return claim;
    return undefined;
  }

  private forget(claim: ConnectClaim): void {
    const set = this.waiting.get(claim.origin);
    if (set === undefined) return;
    set.delete(claim);
    if (set.size === 0) this.waiting.delete(claim.origin);
  }
}

function isSocket(value: unknown): value is Socket {
  return typeof (value as { destroy?: unknown } | null)?.destroy === 'function';
}
