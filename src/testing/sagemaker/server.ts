import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttp2Server, type Http2Session } from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { closeServer, listenOn, webRequestListener } from '../node-adapter.js';
import type { RecordedRequest } from '../recorded-request.js';
import { handleHttp2Stream } from './duplex.js';
import { createSageMakerMock, type SageMakerMock, type SageMakerMockOptions } from './mock.js';

/**
 * Options of {@link startSageMakerEmulator}: the mock's options plus where to listen.
 *
 * @example
 * ```ts
 * const options: SageMakerEmulatorOptions = { endpoints: { sonic: sageMakerTtsEndpoint({ payload: 'cartesia' }) } };
 * ```
 */
export interface SageMakerEmulatorOptions extends SageMakerMockOptions {
  /** TCP port. Default: 0 (a free port). */
  port?: number | undefined;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string | undefined;
}

/**
 * A running SageMaker emulator.
 *
 * @example
 * ```ts
 * const emulator: SageMakerEmulator = await startSageMakerEmulator({ endpoints: { llm: sageMakerChatEndpoint() } });
 * const client = new SageMakerRuntimeClient({ region: 'us-east-1', endpoint: emulator.url, credentials });
 * await emulator.close();
 * ```
 */
export interface SageMakerEmulator {
  /** `http://127.0.0.1:<port>`: pass it as the SDK's `endpoint` or the config's `endpointUrl`. */
  url: string;
  /** The TCP port the emulator listens on: the `port` option, or the free port the OS chose for 0. */
  port: number;
  /** Every request received (HTTP/1.1 and HTTP/2), in arrival order. */
  requests: RecordedRequest[];
  /** The mock behind it (call counts, cold starts, reset). */
  mock: SageMakerMock;
  /** Stops listening and drops every connection and HTTP/2 session. */
  close(): Promise<void>;
}

const PREFACE = Buffer.from('PRI * HTTP/2.0');

/**
 * A Duplex over `socket` that first yields `head` (the bytes read to sniff the protocol). The
 * HTTP/2 server reads a net.Socket's native handle directly, so bytes put back with `unshift`
 * would never reach it; given a plain Duplex it reads through JavaScript (JSStreamSocket).
 */
function replaying(socket: Socket, head: Buffer): Duplex {
  const duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end();
      callback();
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  duplex.push(head);
  socket.on('data', (data: Buffer) => {
    if (!duplex.push(data)) socket.pause();
  });
  socket.once('end', () => duplex.push(null));
  socket.once('error', (error) => duplex.destroy(error));
  socket.once('close', () => duplex.destroy());
  return duplex;
}

/**
 * Starts the SageMaker Runtime emulator on a loopback port. One port speaks both protocols the
 * SDKs use: a connection that opens with the HTTP/2 preface is served
 * as h2c (prior knowledge, what `http2.connect('http://...')` does) and carries the
 * bidirectional stream; any other connection is HTTP/1.1 and carries `InvokeEndpoint` and
 * `InvokeEndpointWithResponseStream`. See `createSageMakerMock` for the operations and
 * `SageMakerScript` for faults; the emulator also answers the response-stream operation over
 * HTTP/2. Rejects when the port cannot be bound.
 *
 * @example
 * ```ts
 * const emulator = await startSageMakerEmulator({
 *   endpoints: { llm: sageMakerChatEndpoint({ script: { errorEventAfterChunks: 2 } }) },
 *   coldStart: { afterIdleMs: 60_000, delayMs: 1_500 },
 * });
 * ```
 */
export async function startSageMakerEmulator(
  options: SageMakerEmulatorOptions = {},
): Promise<SageMakerEmulator> {
  const mock = createSageMakerMock(options);
  let origin = '';
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();

  const http1 = createHttpServer(
    { noDelay: true },
    webRequestListener(
      (request) => mock.handle(request),
      () => origin,
    ),
  );
  const http2 = createHttp2Server();
  http2.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  http2.on('stream', (stream, headers) => {
    handleHttp2Stream(mock, origin, stream, headers).catch(() => stream.close(2));
  });

  const server = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let seen = Buffer.alloc(0);
    const sniff = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const n = Math.min(seen.length, PREFACE.length);
      const isH2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (isH2 && seen.length < PREFACE.length) return;
      socket.off('data', sniff);
      if (isH2) {
        http2.emit('connection', replaying(socket, seen));
        return;
      }
      socket.pause();
      socket.unshift(seen);
      http1.emit('connection', socket);
      socket.resume();
    };
    socket.on('data', sniff);
  });
  const { port, origin: bound } = await listenOn(server, options.port, options.host);
  origin = bound;
  const close = () =>
    closeServer(server, () => {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      http1.closeAllConnections();
    });
  return { url: origin, port, requests: mock.requests, mock, close };
}
