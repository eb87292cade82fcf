/**
 * Kind 5, wrong classification, SageMaker response stream: a broken event-stream frame (bad
 * prelude CRC or bad message CRC) is a retryable ProtocolError, a connection reset before the
 * headers is a retryable network ProviderError (not a connect timeout), and an HTTP 307 is a
 * non-retryable ProviderError with status 307 and code `HTTP_307` (not the SDK's JSON parse
 * failure `SyntaxError`). The servers speak HTTP and the event-stream framing on their own
 * (loopback), over HTTP/1.1 for the response stream and h2c for the bidirectional stream; the
 * frames come from test code, not from the SDK's codec.
 */
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  MidStreamError,
  ProtocolError,
  ProviderError,
  type RouterConfig,
  TimeoutError,
  type VoxrouteError,
} from '../../src/index.js';
import { sageMakerTts } from '../cases/wire/sagemaker-response.js';
import { concat, drain, httpServer, pcmSignal, router } from '../cases/wire/servers.js';
import { payloadPart } from './wire/event-stream.js';
import { h2cEndpoint } from './wire/h2c-endpoint.js';

const AUDIO = pcmSignal(2400, 24_000, 1);
/** A route of one SageMaker TTS provider `sm` at `url` on `stream`. */
const smAlone = (url: string, stream: 'response' | 'bidirectional'): RouterConfig => ({
  providers: { sm: sageMakerTts(url, stream) },
  routes: { tts: { providers: ['sm'], strategy: 'priority' } },
});

/** An h2c SageMaker bidirectional endpoint answering every stream with `answer`. */
const h2Endpoint = h2cEndpoint;

/** The first attempt's error of one SageMaker TTS provider at `url` (response or bidirectional stream). */
async function firstError(
  url: string,
  stream: 'response' | 'bidirectional' = 'response',
): Promise<VoxrouteError> {
  const r = router(smAlone(url, stream));
  const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
  expect(items).toEqual([]);
  expect(AllProvidersFailedError.isInstance(error)).toBe(true);
  const attempts = (error as AllProvidersFailedError).attempts;
  expect(attempts.length).toBeGreaterThanOrEqual(1);
  return attempts[0]!.error as VoxrouteError;
}

/** An endpoint answering 200 with `body` (event-stream bytes) after reading the request. */
async function streaming(body: Buffer): Promise<string> {
  const server = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.end(body);
    });
  });
  return server.url;
}

/** A PayloadPart whose prelude CRC (bytes 8-11) is wrong. */
function badPrelude(bytes: Uint8Array): Buffer {
  const frame = Buffer.from(payloadPart(bytes));
  frame.writeUInt32BE((frame.readUInt32BE(8) ^ 0x5a5a) >>> 0, 8);
  return frame;
}

describe('kind 5: SageMaker classification', () => {
  it('a bad message CRC is a retryable ProtocolError', async () => {
    const error = await firstError(await streaming(payloadPart(AUDIO, true)));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error.code).toBe('PROTOCOL_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.provider).toBe('sm');
    expect(error.message).toMatch(
      /^Provider 'sm' sent a malformed event-stream message: The message checksum \(\d+\) did not match the expected value of \d+$/,
    );
  });

  it('a bad prelude CRC is a retryable ProtocolError', async () => {
    const error = await firstError(await streaming(badPrelude(AUDIO)));
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(
      /^Provider 'sm' sent a malformed event-stream message: The prelude checksum specified in the message \(\d+\) does not match the calculated CRC32 checksum \(\d+\)$/,
    );
  });

  it('a bad message CRC after a good part is a MidStreamError caused by a retryable ProtocolError', async () => {
    const url = await streaming(
      Buffer.concat([payloadPart(AUDIO.subarray(0, 2400)), payloadPart(AUDIO, true)]),
    );
    const r = router(smAlone(url, 'response'));
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(concat(items.map((c) => c.data)).equals(AUDIO.subarray(0, 2400))).toBe(true);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.retryable).toBe(true);
    expect(cause.partialOutput).toBe(true);
    expect(cause.message).toMatch(
      /^Provider 'sm' sent a malformed event-stream message: The message checksum/,
    );
  });

  it('a connection reset before the headers is a retryable network error, not a connect timeout', async () => {
    const server = await httpServer((req) => {
      req.resume();
      req.on('end', () => req.socket.resetAndDestroy());
    });
    const error = await firstError(server.url);
    expect(TimeoutError.isInstance(error)).toBe(false);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(true);
    expect((error as ProviderError).status).toBeUndefined();
    expect(error.message).toMatch(/ECONNRESET/);
  });

  it('an HTTP 307 is a non-retryable ProviderError with status 307, not a SyntaxError', async () => {
    const server = await httpServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(307, { location: 'https://elsewhere.example/', 'content-type': 'text/html' })
          .end('<html><body>Temporary Redirect</body></html>'),
      );
    });
    const error = await firstError(server.url);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(307);
    expect((error as ProviderError).providerCode).toBe('HTTP_307');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "Provider 'sm' answered HTTP 307, which is not a SageMaker Runtime error response",
    );
  });

  it('bidirectional: a bad message CRC is a retryable ProtocolError', async () => {
    const url = await h2Endpoint((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.once('data', () => stream.end(payloadPart(AUDIO, true)));
    });
    const error = await firstError(url, 'bidirectional');
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.provider).toBe('sm');
  });

  it('bidirectional: an HTTP 307 is a non-retryable ProviderError with status 307', async () => {
    const url = await h2Endpoint((stream) => {
      stream.respond({ ':status': 307, location: 'https://elsewhere.example/', 'content-type': 'text/html' });
      stream.end('<html><body>Temporary Redirect</body></html>');
    });
    const error = await firstError(url, 'bidirectional');
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(307);
    expect((error as ProviderError).providerCode).toBe('HTTP_307');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "Provider 'sm' answered HTTP 307, which is not a SageMaker Runtime error response",
    );
  });
});
