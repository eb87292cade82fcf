import type { WebSocket as WsSocket } from 'ws';
import type { MockSocket } from './mock-websocket.js';

const OPEN = 1;

/**
 * A `ws` package server-side socket as a {@link MockSocket}: text frames reach `onMessage` as
 * strings and binary frames as Uint8Array; `send` of a string is a text frame and of bytes a
 * binary frame (ignored once the socket is not open); `terminate()` drops the TCP connection
 * without a close frame (the client sees 1006). `onClose` listeners run once, with the code and
 * reason of the close (1005 / 1006 when there was none).
 */
export function mockSocketOfWs(socket: WsSocket): MockSocket {
  return {
    send(data) {
      if (socket.readyState !== OPEN) return;
      socket.send(data, { binary: typeof data !== 'string' });
    },
    close(code = 1000, reason = '') {
      if (socket.readyState !== OPEN) return;
      socket.close(code, reason);
    },
    terminate() {
      socket.terminate();
    },
    onMessage(listener) {
      socket.on('message', (data, isBinary) => {
        const bytes = toBytes(data);
        listener(isBinary ? bytes : Buffer.from(bytes).toString('utf8'));
      });
    },
    onClose(listener) {
      socket.once('close', (code, reason) => listener(code, reason.toString('utf8')));
    },
  };
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
