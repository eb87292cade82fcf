/**
 * No SageMaker error keeps, at any depth of its cause chain, an object that holds the signed
 * request. The first fix made a plain copy of an AWS SDK exception at the first level only: a
 * network error (reset, TLS) kept as it was, an unmodeled stream error, the connect deadline's
 * error, or a cause of a cause, could still hold the live ClientRequest, whose headers carry
 * the SigV4 `Authorization` and `x-amz-security-token`. Every error of the chain is now a plain
 * copy (name, redacted message, `code`/`errno`/`syscall`, the SDK's `$fault`/`$metadata`), down
 * to a depth limit; cycles end. Built here as the SDK and Node shape them, with a real
 * (never sent) node:http ClientRequest holding the headers.
 */
import { type ClientRequest, request } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError, TimeoutError, type VoxrouteError } from '../../src/errors/index.js';
import { CONNECT_DEADLINE_CODE } from '../../src/providers/sagemaker/connect-deadline-agent.js';
import { invokeError, secretHeaders, thrownStreamError } from '../../src/providers/sagemaker/errors.js';
import { reachableSecrets } from '../helpers/reachable.js';

/** Made-up temporary credentials, written in parts so that no credential-shaped literal is in the tree. */
const CREDENTIALS = {
  accessKeyId: `${'ASIA'}NESTEDCAUSE0TEST`,
  secretAccessKey: `nEsTeD/cAuSe+${'SECRETKEY0123456789'}`,
  sessionToken: `IQoJb3JpZ2luX2Vj${'NESTEDSESSIONTOKEN9876543210zyxwZYXW+/='}`,
};
const SIGNATURE = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const AUTHORIZATION = `AWS4-HMAC-SHA256 Credential=${CREDENTIALS.accessKeyId}/20250101/us-east-1/sagemaker/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=${SIGNATURE}`;
const FORBIDDEN = [
  CREDENTIALS.accessKeyId,
  CREDENTIALS.secretAccessKey,
  CREDENTIALS.sessionToken,
  CREDENTIALS.sessionToken.slice(0, 16),
  SIGNATURE,
  'AWS4-HMAC-SHA256',
  'x-amz-security-token',
];
const secrets = secretHeaders(CREDENTIALS);

const requests: ClientRequest[] = [];
afterAll(() => {
  for (const req of requests) req.destroy();
});

/** A live ClientRequest carrying the signed headers (its socket never connects: port 9, destroyed at the end). */
function signedRequest(): ClientRequest {
  const req = request({
    host: '127.0.0.1',
    port: 9,
    method: 'POST',
    path: '/endpoints/ep/invocations-response-stream',
    headers: { authorization: AUTHORIZATION, 'x-amz-security-token': CREDENTIALS.sessionToken },
  });
  req.on('error', () => {});
  requests.push(req);
  return req;
}

/** A Node socket / TLS error as the HTTP client raises it, holding the request, with `cause` below it. */
function socketError(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message), {
    code,
    errno: -104,
    syscall: 'read',
    req: signedRequest(),
    cause,
  });
}

/** An AWS SDK exception: `$fault`, `$metadata`, `$response` holding the request. */
function sdkError(name: string, status: number | undefined, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: 'server',
    $metadata: { httpStatusCode: status, requestId: 'req-7', extendedRequestId: 'ext' },
    $response: { statusCode: status, headers: {}, body: { req: signedRequest() } },
    cause,
  });
}

/** The chain of `cause`s under `error`, each as [name, message, code]. */
function chain(error: unknown): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (let e = (error as Error).cause; e !== undefined; e = (e as Error).cause) {
    const { name, message, code } = e as Error & { code?: unknown };
    out.push([name, message, code]);
  }
  return out;
}

function expectNothingReachable(error: VoxrouteError): void {
  expect(reachableSecrets(error, FORBIDDEN)).toEqual([]);
  const shown = inspect(error, { showHidden: true, depth: 20 }).toLowerCase();
  expect(FORBIDDEN.filter((s) => shown.includes(s.toLowerCase()))).toEqual([]);
}

describe('a nested cause holding the signed request is copied plain at every depth', () => {
  it('a reset before the answer, caused by a TLS error, caused by a socket error: all plain copies', () => {
    const error = invokeError(
      'sm',
      socketError(
        'socket hang up',
        'ECONNRESET',
        socketError(
          'tls alert',
          'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR',
          socketError('read ECONNRESET', 'ECONNRESET'),
        ),
      ),
      1000,
      secrets,
    );
    expect(ProviderError.isInstance(error) && error.retryable).toBe(true);
    expectNothingReachable(error);
    expect(chain(error)).toEqual([
      ['Error', 'socket hang up', 'ECONNRESET'],
      ['Error', 'tls alert', 'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR'],
      ['Error', 'read ECONNRESET', 'ECONNRESET'],
    ]);
    const first = error.cause as Record<string, unknown>;
    expect(Reflect.ownKeys(first).sort()).toEqual([
      'cause',
      'code',
      'errno',
      'message',
      'name',
      'stack',
      'syscall',
    ]);
  });

  it('an SDK 503 whose cause holds the request, with the session token in its message', () => {
    const error = invokeError(
      'sm',
      sdkError(
        'ServiceUnavailable',
        503,
        'unavailable',
        socketError(`write failed for token ${CREDENTIALS.sessionToken}`, 'EPIPE'),
      ),
      1000,
      secrets,
    );
    expect(ProviderError.isInstance(error) && error.status).toBe(503);
    expectNothingReachable(error);
    expect(chain(error)).toEqual([
      ['ServiceUnavailable', 'unavailable', undefined],
      ['Error', 'write failed for token [redacted]', 'EPIPE'],
    ]);
    expect((error.cause as { $metadata: unknown }).$metadata).toEqual({
      httpStatusCode: 503,
      requestId: 'req-7',
    });
  });

  it('the connect deadline, whose error holds the request', () => {
    const error = invokeError(
      'sm',
      socketError('connect deadline', CONNECT_DEADLINE_CODE, socketError('connect ETIMEDOUT', 'ETIMEDOUT')),
      250,
      secrets,
    );
    expect(TimeoutError.isInstance(error) && error.phase).toBe('connect');
    expectNothingReachable(error);
    expect(chain(error)).toEqual([
      ['Error', 'connect deadline', CONNECT_DEADLINE_CODE],
      ['Error', 'connect ETIMEDOUT', 'ETIMEDOUT'],
    ]);
  });

  it('a body cut mid-stream by a reset, and an unmodeled stream error, each holding the request below', () => {
    const cut = thrownStreamError(
      'sm',
      socketError('aborted', 'ECONNRESET', sdkError('TimeoutError', undefined, 'x')),
      true,
      secrets,
      640,
    );
    expect(ProtocolError.isInstance(cut) && cut.offset).toBe(640);
    expectNothingReachable(cut);
    expect(chain(cut)).toEqual([
      ['Error', 'aborted', 'ECONNRESET'],
      ['TimeoutError', 'x', undefined],
    ]);
    const unmodeled = Object.assign(new Error('model crashed'), {
      name: 'ModelCrash',
      cause: Object.assign(new Error('decoder gave up'), { req: signedRequest() }),
    });
    const stream = thrownStreamError('sm', unmodeled, false, secrets);
    expect(ProviderError.isInstance(stream) && stream.providerType).toBe('ModelCrash');
    expectNothingReachable(stream);
    expect(chain(stream)).toEqual([
      ['ModelCrash', 'model crashed', undefined],
      ['Error', 'decoder gave up', undefined],
    ]);
  });

  it('a chain deeper than the limit is cut there (8 levels kept), and a cycle ends', () => {
    let deep: Error = socketError('level 20', 'ECONNRESET');
    for (let i = 19; i >= 1; i--) deep = socketError(`level ${i}`, 'ECONNRESET', deep);
    const error = invokeError('sm', deep, 1000, secrets);
    expectNothingReachable(error);
    expect(chain(error).map(([, message]) => message)).toEqual([
      'level 1',
      'level 2',
      'level 3',
      'level 4',
      'level 5',
      'level 6',
      'level 7',
      'level 8',
    ]);

    const a = socketError('a', 'ECONNRESET');
    const b = socketError('b', 'ECONNRESET', a);
    (a as { cause?: unknown }).cause = b;
    const cyclic = invokeError('sm', a, 1000, secrets);
    expectNothingReachable(cyclic);
    expect(chain(cyclic).map(([, message]) => message)).toEqual(['a', 'b']);
  });
});
