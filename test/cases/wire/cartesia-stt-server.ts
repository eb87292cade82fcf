import { wsServer } from './servers.js';

/**
 * A Cartesia `/stt/websocket` server of its own (loopback `ws`, not voxroute's mock) that keeps
 * the audio it hears in `heard` and answers the text `finalize` with the message
 * `transcript(bytes heard so far)` then `flush_done`, and `close` with `done` and a normal close
 * (1000); other text is ignored. With `requestId`, `flush_done` and `done` carry it.
 */
export async function cartesiaSttServer(
  transcript: (bytesHeard: number) => Record<string, unknown>,
  { requestId, heard = [] }: { requestId?: string; heard?: Buffer[] } = {},
) {
  const id = requestId === undefined ? {} : { request_id: requestId };
  const server = await wsServer((ws) => {
    ws.on('message', (data, binary) => {
      if (binary) {
        heard.push(Buffer.from(data as Buffer));
        return;
      }
      const text = String(data);
      if (text === 'finalize') {
        ws.send(JSON.stringify(transcript(Buffer.concat(heard).byteLength)));
        ws.send(JSON.stringify({ type: 'flush_done', ...id }));
      } else if (text === 'close') {
        ws.send(JSON.stringify({ type: 'done', ...id }));
        ws.close(1000);
      }
    });
  });
  return { server, heard };
}
