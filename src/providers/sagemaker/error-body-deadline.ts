import { PassThrough, type Readable } from 'node:stream';
import { ERROR_BODY_MAX_WAIT_MS } from '../../transport/error-body-deadline.js';

/**
 * The body of an error status (not 2xx) as the AWS SDK's error deserializer will read it,
 * bounded in time: what arrives within `ms` (default 1000, the transport's error-body deadline)
 * of the status is passed on, then the body ends there and the response is destroyed (its
 * socket closed, never reused). A part that is not whole JSON is dropped (the SDK would fail
 * to parse it and lose the status): the SDK then builds its error from the status and the
 * `x-amzn-errortype` header alone. A body that ends in time is passed on unchanged.
 */
export function boundedErrorBody(body: Readable, ms: number = ERROR_BODY_MAX_WAIT_MS): Readable {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  let done = false;
  const finish = (text: Buffer | undefined) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    out.end(text);
  };
  const onData = (chunk: Buffer | string) => {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };
  const onEnd = () => finish(Buffer.concat(chunks));
  const onError = () => finish(wholeJsonOrNothing(Buffer.concat(chunks)));
  const timer = setTimeout(() => {
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
