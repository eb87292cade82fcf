import { createServer, type Server, type Socket } from 'node:net';

/** How a {@link RespServer} answers one command: RESP text to write (`-ERR ...\r\n`, `+OK\r\n`...). */
export type RespAnswer = (args: readonly string[]) => string;

/** A loopback server that speaks RESP on its own (no Redis): each command gets `answer(args)`. */
export interface RespServer {
  /** `redis://127.0.0.1:<port>`, to which a password or query may be added. */
  readonly host: string;
  /** Every command received, by connection order, as its arguments. */
  readonly commands: string[][];
  close(): Promise<void>;
}

/**
 * Starts a raw RESP server on a free loopback port. It parses the client's command arrays
 * (`*N\r\n$len\r\narg\r\n...`) and writes `answer(args)` for each; a connection's socket errors
 * are ignored.
 */
export async function startRespServer(answer: RespAnswer): Promise<RespServer> {
  const commands: string[][] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const parsed = readCommand(buffer);
        if (!parsed) return;
        buffer = buffer.subarray(parsed.length);
        commands.push(parsed.args);
        socket.write(answer(parsed.args));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    host: `127.0.0.1:${port}`,
    commands,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One whole command array at the start of `buffer`, or undefined when more bytes are needed. */
function readCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  const text = buffer.toString('latin1');
  const head = /^\*(\d+)\r\n/.exec(text);
  if (!head) return undefined;
  let at = head[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(head[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
    if (!bulk) return undefined;
    at += bulk[0].length;
    const length = Number(bulk[1]);
    if (text.length < at + length + 2) return undefined;
    args.push(buffer.subarray(at, at + length).toString('utf8'));
    at += length + 2;
  }
  return { args, length: at };
}
