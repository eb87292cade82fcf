/**
 * A WebSocket server written on node:net alone: it completes the opening handshake itself
 * (RFC 6455 §4.2.2) and then writes whatever bytes a test gives it, so it can send frames no
 * WebSocket library would (a reserved opcode, a text frame of invalid UTF-8).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { closeAfterTest } from '../../helpers/close-after-test.js';

const closeLater = closeAfterTest();

/** What a {@link rawWebSocketServer} saw. */
export interface RawWebSocketWire {
  /** `ws://127.0.0.1:<port>`. */
  url: string;
  /** The opcodes of the client's frames, in order, on every connection. */
  opcodes: number[];
  /** The status codes of the client's close frames. */
  closeCodes: number[];
}

/**
 * Serves WebSocket handshakes on 127.0.0.1; after the client's first frame on a connection,
 * writes `frame` to it raw. Records the client's frames (unmasked, RFC 6455 §5.2).
 */
export async function rawWebSocketServer(frame: Uint8Array): Promise<RawWebSocketWire> {
  const wire: RawWebSocketWire = { url: '', opcodes: [], closeCodes: [] };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    let upgraded = false;
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!upgraded) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        buffered = buffered.subarray(end + 4);
        const key = /^sec-websocket-key:\s*(\S+)/im.exec(head)?.[1] ?? '';
        const accept = createHash('sha1')
          .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
          .digest('base64');
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        upgraded = true;
      }
      for (let frameOf = clientFrame(buffered); frameOf; frameOf = clientFrame(buffered)) {
        buffered = buffered.subarray(frameOf.size);
        wire.opcodes.push(frameOf.opcode);
        if (frameOf.opcode === 0x8 && frameOf.payload.length >= 2)
          wire.closeCodes.push(frameOf.payload.readUInt16BE(0));
        if (!answered) {
          answered = true;
          socket.write(frame);
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  wire.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeLater(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return wire;
}

/** The first whole client frame in `bytes`: opcode, unmasked payload and its size on the wire. */
function clientFrame(bytes: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (bytes.length < 2) return undefined;
  let length = bytes[1]! & 0x7f;
  let at = 2;
  if (length === 126) {
    if (bytes.length < 4) return undefined;
    length = bytes.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return undefined;
    length = Number(bytes.readBigUInt64BE(2));
    at = 10;
  }
  const masked = (bytes[1]! & 0x80) !== 0;
  const start = at + (masked ? 4 : 0);
  if (bytes.length < start + length) return undefined;
  const payload = Buffer.from(bytes.subarray(start, start + length));
  if (masked) for (let i = 0; i < length; i++) payload[i]! ^= bytes[at + (i % 4)]!;
  return { opcode: bytes[0]! & 0x0f, payload, size: start + length };
}
