/**
 * The server side of one WebSocket session, as a mock provider sees it. Transport-neutral:
 * `startMockServer` serves it with the `ws` package on a real port, and the msw adapter with
 * msw's `ws` API, so a mock is written once.
 *
 * @example
 * ```ts
 * const accept = (socket: MockSocket) => socket.onMessage((data) => socket.send(data));
 * ```
 */
export interface MockSocket {
  /** Sends a text frame (string) or a binary frame (bytes). Ignored once the socket is closed. */
  send(data: string | Uint8Array): void;
  /** Closes with a close frame: `code` (default 1000) and `reason` (at most 123 bytes). */
  close(code?: number, reason?: string): void;
  /** Drops the connection without a close frame: the client sees an abnormal close (1006). */
  terminate(): void;
  /** Calls `listener` for each message from the client: text as string, binary as bytes. */
  onMessage(listener: (data: string | Uint8Array) => void): void;
  /** Calls `listener` once when the socket has closed (either side), with the code and reason. */
  onClose(listener: (code: number, reason: string) => void): void;
}

/**
 * A mock's answer to a WebSocket upgrade request: refuse it with an HTTP status (e.g. 401 for
 * a bad key, with an optional body), or accept it and run the session.
 */
export type MockUpgrade =
  | {
      /** Refuse the upgrade with this HTTP `status` (e.g. 401) and optional response `body` text. */
      reject: {
        /** HTTP status of the refusal, e.g. 401, 429, 503. */
        status: number;
        /** Response body text. Default: none. */
        body?: string;
      };
    }
  | {
      /** Accept the upgrade and run the session: called once with the server side of the socket. */
      accept: (socket: MockSocket) => void;
    };

/**
 * A mock provider that also speaks WebSocket: `upgrade` gets the upgrade request (URL with
 * query, handshake headers) and decides. The HTTP side is `MockProvider.handle`.
 */
export interface MockWebSocketEndpoint {
  /** Decides on one upgrade request (URL with query, handshake headers): reject it or accept it. */
  upgrade(request: Request): MockUpgrade;
}
