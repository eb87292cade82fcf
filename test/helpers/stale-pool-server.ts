import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * The request handler of a keep-alive server that logs, per request, whether it came on a
 * `fresh` socket or a `reuse`d one (`log`). While `holdUntil` is above 0, answers are held until
 * that many requests are in (so that a client opens that many connections and pools them all);
 * once `dropReused` is set, a request that arrives on a socket a second time destroys the socket
 * without a byte of answer: a load balancer's idle reset or a restarted server, which drop every
 * idle connection at once. `answer` writes a request's answer.
 */
export function stalePoolHandler(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const state = { log: [] as string[], dropReused: false, holdUntil: 0 };
  const seen = new WeakSet<Socket>();
  const held: (() => void)[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const reused = seen.has(req.socket);
    seen.add(req.socket);
    state.log.push(reused ? 'reuse' : 'fresh');
    if (reused && state.dropReused) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      const release = () => answer(req, res);
      if (state.holdUntil === 0) {
        release();
        return;
      }
      held.push(release);
      if (held.length >= state.holdUntil) {
        state.holdUntil = 0;
        for (const r of held.splice(0)) r();
      }
    });
  };
  return { state, handle };
}
