import { type ClientRequest, Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { type Clock, systemClock } from '../../internal/clock.js';

/** The `code` of the error a connection that did not open within its deadline is destroyed with. */
export const CONNECT_DEADLINE_CODE = 'VOXROUTE_CONNECT_TIMEOUT';

/**
 * Set (true) on the error of a request that was sent on a reused keep-alive socket (Node's
 * `request.reusedSocket`), by the agents of {@link connectDeadlineAgents}: a reset there before
 * any answer is a connection the server dropped while idle, not the provider failing.
 */
export const ON_REUSED_SOCKET = Symbol('voxroute.onReusedSocket');

/**
 * The HTTP and HTTPS agents of the AWS SDK's request handler (keep-alive, at most 50 sockets
 * per origin, as the handler's own defaults; an error of a request sent on a reused socket is
 * marked {@link ON_REUSED_SOCKET}), with the connect deadline enforced here: a socket
 * not connected (TCP) within `connectMs` ms is destroyed with an error whose `code` is
 * {@link CONNECT_DEADLINE_CODE}; 0: no deadline. The timer (on `clock`, default the system
 * clock) is cleared as soon as the socket connects or closes, so a refused connection leaves
 * none behind (the handler's own `connectionTimeout` below 2000 ms leaves its timer running
 * until it fires).
 */
export function connectDeadlineAgents(
  connectMs: number,
  clock: Clock = systemClock,
): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  const options = { keepAlive: true, maxSockets: 50 };
  return {
    httpAgent: markingReuse(withConnectDeadline(new HttpAgent(options), connectMs, clock)),
    httpsAgent: markingReuse(withConnectDeadline(new HttpsAgent(options), connectMs, clock)),
  };
}

type AddRequest = (request: ClientRequest, options: unknown) => void;

/** Marks the error of each request sent on a reused socket (the listener runs before the handler's). */
function markingReuse<A extends HttpAgent>(agent: A): A {
  const target = agent as unknown as { addRequest: AddRequest };
  const add = target.addRequest.bind(agent);
  target.addRequest = (request, options) => {
    request.once('error', (error: unknown) => {
      if (request.reusedSocket && typeof error === 'object' && error !== null)
        (error as Record<symbol, unknown>)[ON_REUSED_SOCKET] = true;
    });
    add(request, options);
  };
  return agent;
}

type CreateConnection = (options: unknown, callback?: unknown) => Duplex | undefined;

function withConnectDeadline<A extends HttpAgent>(agent: A, connectMs: number, clock: Clock): A {
  if (connectMs <= 0) return agent;
  const target = agent as unknown as { createConnection: CreateConnection };
  const create = target.createConnection.bind(agent);
  target.createConnection = (options, callback) => {
    const socket = create(options, callback);
    if (!socket) return socket;
    const timer = clock.setTimeout(() => {
      const error = new Error(`no connection within ${connectMs} ms`);
      socket.destroy(Object.assign(error, { code: CONNECT_DEADLINE_CODE }));
    }, connectMs);
    const clear = () => clock.clearTimeout(timer);
    socket.once('connect', clear);
    socket.once('close', clear);
    return socket;
  };
  return agent;
}
