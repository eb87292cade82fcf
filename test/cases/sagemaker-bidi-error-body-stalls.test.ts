/**
 * The SageMaker bidirectional stream (HTTP/2) answers an error status and then stalls its body:
 * the status already says what happened, so the body is read for at most the error-body
 * deadline (1 s) and the call falls back with the attempt recorded as that status, as on the
 * HTTP transport and the response stream. Before, the body was read with no deadline: with no
 * first-chunk deadline the call hung, and with one the attempt was recorded as a first-chunk
 * timeout, not as the 503 the endpoint sent. The endpoint speaks HTTP/2 on its own (node:http2).
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/index.js';
import { h2cEndpoint } from '../reliability/wire/h2c-endpoint.js';
import { routerOverBackup, servedByBackup } from './wire/backup.js';
import { sageMakerTts } from './wire/sagemaker-response.js';

/** An endpoint answering 503 ServiceUnavailableError, then part of its JSON body, then nothing. */
const stalling = () =>
  h2cEndpoint((stream) => {
    stream.respond({
      ':status': 503,
      'content-type': 'application/json',
      'x-amzn-errortype': 'ServiceUnavailableError',
    });
    stream.write('{"message":"over');
  });

describe('SageMaker bidirectional: an error status with a stalled body', () => {
  it.each([
    ['no first-chunk deadline', false],
    ['a first-chunk deadline of 600 ms', 600],
  ] as const)('%s: b speaks, a is recorded as its 503', async (_name, firstChunkTimeoutMs) => {
    const url = await stalling();
    const { r } = await routerOverBackup(sageMakerTts(url, 'bidirectional'), ['tts'], {
      firstChunkTimeoutMs,
      idleTimeoutMs: 60_000,
    });
    const started = performance.now();
    const error = await servedByBackup(r, 'tts');
    // The error-body deadline is 1 s; the bound leaves room for loading the bidirectional code.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([error.status, error.providerCode, error.retryable]).toEqual([
      503,
      'ServiceUnavailableError',
      true,
    ]);
  });
});
