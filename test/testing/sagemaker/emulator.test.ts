import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createManualDelay,
  createSageMakerMock,
  type SageMakerEmulator,
  sageMakerChatEndpoint,
  sageMakerErrorType,
  startSageMakerEmulator,
} from '../../../src/testing/index.js';

const signed = {
  authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sagemaker/aws4_request, Signature=00',
};

/** One event-stream message read by hand (PROTOCOLS 5.2), checking both CRCs with zlib's crc32. */
interface Frame {
  headers: Record<string, string>;
  payload: string;
}
function readFrames(bytes: Uint8Array): Frame[] {
  const buf = Buffer.from(bytes);
  const frames: Frame[] = [];
  let at = 0;
  while (at < buf.length) {
    const total = buf.readUInt32BE(at);
    const headersLength = buf.readUInt32BE(at + 4);
    expect(buf.readUInt32BE(at + 8)).toBe(crc32(buf.subarray(at, at + 8)));
    expect(buf.readUInt32BE(at + total - 4)).toBe(crc32(buf.subarray(at, at + total - 4)));
    const headers: Record<string, string> = {};
    let h = at + 12;
    while (h < at + 12 + headersLength) {
      const nameLength = buf.readUInt8(h);
      const name = buf.toString('utf8', h + 1, h + 1 + nameLength);
      const type = buf.readUInt8(h + 1 + nameLength);
      expect(type).toBe(7);
      const valueLength = buf.readUInt16BE(h + 2 + nameLength);
      headers[name] = buf.toString('utf8', h + 4 + nameLength, h + 4 + nameLength + valueLength);
      h += 4 + nameLength + valueLength;
    }
    frames.push({ headers, payload: buf.toString('utf8', at + 12 + headersLength, at + total - 4) });
    at += total;
  }
  return frames;
}

let emulator: SageMakerEmulator;
beforeAll(async () => {
  emulator = await startSageMakerEmulator({
    endpoints: {
      c20: {
        reply: {
          parts: ['{"outputs":[" a"]}\n', '{"outputs":[" b"]}'],
          contentType: 'application/jsonlines',
        },
      },
      c21: {
        reply: { parts: ['data: {"t":"Hel"}\n\n', 'data: {"t":"lo"}\n\n'] },
        script: {
          errorEventAfterChunks: 1,
          errorEvent: { code: 'ModelInvocationTimeExceeded', message: 'slow' },
        },
      },
      internal: {
        reply: { parts: ['x'] },
        script: { errorEventAfterChunks: 0, errorEvent: { type: 'InternalStreamFailure' } },
      },
      recut: { reply: { parts: ['abcdef', 'ghij'] }, script: { partBytes: 4 } },
      flaky: sageMakerChatEndpoint({ script: [{ failTimes: 1, failStatus: 429, retryAfter: '2' }] }),
      percall: { reply: ({ call, json }) => ({ parts: [`call ${call}: ${JSON.stringify(json)}`] }) },
    },
  });
});
afterAll(() => emulator.close());

async function post(
  endpoint: string,
  body = '{}',
  headers: Record<string, string> = signed,
): Promise<Response> {
  return fetch(`${emulator.url}/endpoints/${endpoint}/invocations-response-stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('SageMaker emulator wire format', () => {
  it('C20: sends each reply part as one PayloadPart message with both CRCs and the 5.3 headers', async () => {
    const response = await post('c20');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    expect(response.headers.get('x-amzn-sagemaker-content-type')).toBe('application/jsonlines');
    expect(response.headers.get('x-amzn-invoked-production-variant')).toBe('AllTraffic');
    const frames = readFrames(new Uint8Array(await response.arrayBuffer()));
    expect(frames).toEqual([
      {
        headers: {
          ':message-type': 'event',
          ':event-type': 'PayloadPart',
          ':content-type': 'application/octet-stream',
        },
        payload: '{"outputs":[" a"]}\n',
      },
      {
        headers: {
          ':message-type': 'event',
          ':event-type': 'PayloadPart',
          ':content-type': 'application/octet-stream',
        },
        payload: '{"outputs":[" b"]}',
      },
    ]);
  });

  it('C21: a ModelStreamError exception message after one part ends the body', async () => {
    const frames = readFrames(new Uint8Array(await (await post('c21')).arrayBuffer()));
    expect(frames).toHaveLength(2);
    expect(frames[1]).toEqual({
      headers: {
        ':message-type': 'exception',
        ':exception-type': 'ModelStreamError',
        ':content-type': 'application/json',
      },
      payload: '{"Message":"slow","ErrorCode":"ModelInvocationTimeExceeded"}',
    });
    const internal = readFrames(new Uint8Array(await (await post('internal')).arrayBuffer()));
    expect(internal).toEqual([
      {
        headers: {
          ':message-type': 'exception',
          ':exception-type': 'InternalStreamFailure',
          ':content-type': 'application/json',
        },
        payload: '{"Message":"mock stream error"}',
      },
    ]);
  });

  it('partBytes cuts the stream into parts of that many bytes', async () => {
    const frames = readFrames(new Uint8Array(await (await post('recut')).arrayBuffer()));
    expect(frames.map((f) => f.payload)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('HTTP errors carry x-amzn-errortype; a scripted array scripts only the first call', async () => {
    const first = await post('flaky');
    expect(first.status).toBe(429);
    expect(first.headers.get('x-amzn-errortype')).toBe('ModelNotReadyException');
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({ message: 'mock failure 1 of 1' });
    expect((await post('flaky')).status).toBe(200);
    expect([400, 401, 403, 424, 429, 500, 503, 530, 502].map(sageMakerErrorType)).toEqual([
      'ValidationError',
      'UnrecognizedClientException',
      'AccessDeniedException',
      'ModelError',
      'ModelNotReadyException',
      'InternalFailure',
      'ServiceUnavailable',
      'InternalDependencyException',
      'InternalFailure',
    ]);
  });

  it('refuses unsigned requests (403) and unknown endpoints (400 ValidationError)', async () => {
    const unsigned = await post('c20', '{}', {});
    expect([unsigned.status, unsigned.headers.get('x-amzn-errortype')]).toEqual([
      403,
      'MissingAuthenticationTokenException',
    ]);
    const unknown = await post('missing');
    expect([unknown.status, unknown.headers.get('x-amzn-errortype')]).toEqual([400, 'ValidationError']);
    expect(await unknown.json()).toEqual({ message: 'Endpoint missing of account 000000000000 not found.' });
  });

  it('reply functions get the call number and the JSON body; requests are recorded', async () => {
    const frames = readFrames(new Uint8Array(await (await post('percall', '{"q":1}')).arrayBuffer()));
    expect(frames.map((f) => f.payload)).toEqual(['call 1: {"q":1}']);
    expect(emulator.mock.calls('percall')).toBe(1);
    const record = emulator.requests.at(-1)!;
    expect(record).toMatchObject({
      endpoint: 'percall',
      call: 1,
      status: 200,
      chunksSent: 1,
      body: { q: 1 },
    });
    expect(await record.ended).toBe('completed');
  });
});

describe('cold starts', () => {
  it('the first call and any call after afterIdleMs of idleness wait delayMs more before the headers', async () => {
    const time = createManualDelay();
    let now = 0;
    const mock = createSageMakerMock({
      endpoints: { llm: { reply: { parts: ['ok'] } } },
      coldStart: { afterIdleMs: 60_000, delayMs: 2_500 },
      script: { headersDelayMs: 20 },
      delay: time.delay,
      now: () => now,
    });
    const call = () =>
      mock.handle(
        new Request('http://sm.test/endpoints/llm/invocations-response-stream', {
          method: 'POST',
          headers: signed,
          body: '{}',
        }),
      );
    const first = call();
    expect(await time.release()).toBe(2_520);
    expect((await first).status).toBe(200);
    await (await first).arrayBuffer();
    now += 59_999;
    const warm = call();
    expect(await time.release()).toBe(20);
    await (await warm).arrayBuffer();
    now += 60_000;
    const cold = call();
    expect(await time.release()).toBe(2_520);
    await (await cold).arrayBuffer();
    expect(mock.coldStarts).toEqual([
      { endpointName: 'llm', call: 1 },
      { endpointName: 'llm', call: 3 },
    ]);
  });
});
