import { PassThrough, type Readable } from 'node:stream';
import { type Clock, systemClock } from '../../internal/clock.js';
import { ERROR_BODY_MAX_WAIT_MS } from '../../transport/error-body-deadline.js';

/** The most of an error body kept, in bytes: the transport's limit (`maxErrorBodyBytes`). */
const MAX_ERROR_BODY_BYTES = 65_536;

/**
 * The body of an error status (not 2xx) as the AWS SDK's error deserializer will read it,
 * bounded in time and size: what arrives within `ms` (default 1000, the transport's error-body
 * deadline; on `clock`, default the system clock) of the status, up to `maxBytes` (default
 * 64 KiB), is passed on, then the body ends
 * there and the response is destroyed (its socket closed, never reused). A part that is not
 * whole JSON (a body cut at `maxBytes` included) is dropped (the SDK would fail to parse it and
 * lose the status): the SDK then builds its error from the status and the `x-amzn-errortype`
 * header alone. A body that ends in time is passed on unchanged.
 */
export function boundedErrorBody(
  body: Readable,
  ms: number = ERROR_BODY_MAX_WAIT_MS,
  maxBytes: number = MAX_ERROR_BODY_BYTES,
  clock: Clock = systemClock,
): Readable {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  let bytes = 0;
  let done = false;
  const finish = (text: Buffer | undefined) => {
    if (done) return;
    done = true;
    clock.clearTimeout(timer);
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    out.end(text);
  };
  const onData = (chunk: Buffer | string) => {
    const part = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(part);
    bytes += part.byteLength;
    if (bytes <= maxBytes) return;
    finish(wholeJsonOrNothing(Buffer.concat(chunks).subarray(0, maxBytes)));
    body.destroy();
  };
  const onEnd = () => finish(Buffer.concat(chunks));
  const onError = () => finish(wholeJsonOrNothing(Buffer.concat(chunks)));
  const timer = clock.setTimeout(() => {
    finish(wholeJsonOrNothing(Buffer.concat(chunks)));
    body.destroy();
  }, ms);
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', onError);
  return out;
}

function wholeJsonOrNothing(bytes: Buffer): Buffer | undefined {
  try {
    JSON.parse(bytes.toString('utf8'));
    return bytes;
  } catch {
    return undefined;
  }
}
