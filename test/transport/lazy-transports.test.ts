import { describe, expect, it } from 'vitest';
import { VoxrouteError } from '../../src/errors/voxroute-error.js';
import { lazyTransports, type Transports } from '../../src/transport/lazy-transports.js';
import type { HttpRequest, HttpResponse } from '../../src/transport/types.js';
import type { WebSocketConnection, WebSocketConnectRequest } from '../../src/transport/websocket-types.js';
import { deferred } from '../helpers/deferred.js';

const REQUEST = { provider: 'a', url: 'http://127.0.0.1:9/x' } as HttpRequest;
const CONNECT = { provider: 'a', url: 'ws://127.0.0.1:9/x' } as WebSocketConnectRequest;

/** Built transports that log each call to `log` and answer with a value naming `tag`. */
function built(tag: string, log: string[], canSendHeaders?: boolean): Transports {
  return {
    http: {
      request: async (req) => {
        log.push(`${tag} request ${req.url}`);
        return { status: 200, tag } as unknown as HttpResponse;
      },
      preconnect: async (origin) => {
        log.push(`${tag} preconnect ${origin}`);
      },
      close: async () => {
        log.push(`${tag} http closed`);
      },
    },
    webSocket: {
      connect: async (req) => {
        log.push(`${tag} connect ${req.url}`);
        return { tag } as unknown as WebSocketConnection;
      },
      ...(canSendHeaders !== undefined ? { canSendHeaders } : {}),
      close: async () => {
        log.push(`${tag} webSocket closed`);
      },
    },
  };
}

describe('lazyTransports', () => {
  it('starts the load at once; calls made before it wait, then reach the built transports; loaded gets them once', async () => {
    const log: string[] = [];
    const load = deferred<Transports>();
    let loads = 0;
    const handed: Transports[] = [];
    const standIns = lazyTransports(
      () => {
        loads++;
        return load.promise;
      },
      (t) => handed.push(t),
    );
    expect(loads).toBe(1);
    expect(standIns.webSocket.canSendHeaders).toBeUndefined();
    const response = standIns.http.request(REQUEST);
    const connection = standIns.webSocket.connect(CONNECT);
    const preconnected = standIns.http.preconnect?.('http://127.0.0.1:9');
    await Promise.resolve();
    expect(log).toEqual([]);
    const real = built('real', log, false);
    load.resolve(real);
    expect(await response).toEqual({ status: 200, tag: 'real' });
    expect(await connection).toEqual({ tag: 'real' });
    await preconnected;
    expect(log).toEqual([
      'real request http://127.0.0.1:9/x',
      'real connect ws://127.0.0.1:9/x',
      'real preconnect http://127.0.0.1:9',
    ]);
    expect(handed).toEqual([real]);
    expect(standIns.webSocket.canSendHeaders).toBe(false);
    // After the load, the stand-ins still forward (calls planned on them), loading nothing again.
    await standIns.http.request(REQUEST);
    expect(loads).toBe(1);
    expect(handed).toHaveLength(1);
  });

  it('a failed load rejects the calls with a VoxrouteError (cause: the load error); the next call loads again', async () => {
    const log: string[] = [];
    const cause = new Error('Cannot find module deferred-code-XXXX.js');
    let loads = 0;
    const standIns = lazyTransports(async () => {
      loads++;
      if (loads === 1) throw cause;
      return built('second', log);
    });
    const error = await standIns.http.request(REQUEST).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(VoxrouteError.isInstance(error)).toBe(true);
    expect((error as VoxrouteError).code).toBe('VOXROUTE_ERROR');
    expect((error as VoxrouteError).retryable).toBe(false);
    expect((error as Error).message).toBe(
      'The transport code of the router could not be loaded (is the voxroute install complete? After a passing failure such as EMFILE, restart the process: ' +
        'Node before 24 does not load a failed module again)',
    );
    expect((error as Error).cause).toBe(cause);
    expect(loads).toBe(1);
    expect(await standIns.webSocket.connect(CONNECT)).toEqual({ tag: 'second' });
    expect(loads).toBe(2);
    expect(log).toEqual(['second connect ws://127.0.0.1:9/x']);
  });

  it('close() waits for a load in progress and closes what it built', async () => {
    const log: string[] = [];
    const load = deferred<Transports>();
    const standIns = lazyTransports(() => load.promise);
    let closed = false;
    const closing = Promise.all([standIns.http.close(), standIns.webSocket.close?.()]).then(() => {
      closed = true;
    });
    await Promise.resolve();
    expect(closed).toBe(false);
    load.resolve(built('real', log));
    await closing;
    expect(log).toEqual(['real http closed', 'real webSocket closed']);
  });

  it('close() after a failed load resolves and closes nothing', async () => {
    const standIns = lazyTransports(() => Promise.reject(new Error('no code')));
    await expect(Promise.all([standIns.http.close(), standIns.webSocket.close?.()])).resolves.toEqual([
      undefined,
      undefined,
    ]);
  });
});
