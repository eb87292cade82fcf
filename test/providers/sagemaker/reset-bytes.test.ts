/**
 * A SageMaker response stream reset after some PayloadParts reports the bytes it had received,
 * not 0. The server writes the event stream on its own (node:http, our test framing).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/index.js';
import { drain, httpServer, readBody, router } from '../../cases/wire/servers.js';
import { payloadPart } from '../../reliability/wire/event-stream.js';

describe('SageMaker response stream reset mid-stream', () => {
  it('the truncated ProtocolError counts the PayloadPart bytes delivered (960 + 480)', async () => {
    const server = await httpServer(async (req, res) => {
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
      res.write(payloadPart(Buffer.alloc(960, 1)));
      res.write(payloadPart(Buffer.alloc(480, 2)), () => setImmediate(() => req.socket.resetAndDestroy()));
    });
    const r = router({
      providers: {
        sm: {
          kind: 'sagemaker',
          region: 'us-east-1',
          endpointName: 'tts',
          endpointUrl: server.url,
          credentials: { accessKeyId: 'AKIDRESETTEST', secretAccessKey: 'reset-test-secret-key' },
          tts: { payload: 'raw-pcm', voices: { agent: 'v' }, sampleRate: 24_000 },
        },
      },
      routes: { tts: { providers: ['sm'], strategy: 'priority' } },
    });
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(items.reduce((n, c) => n + c.data.byteLength, 0)).toBe(1440);
    const cut = (error as { cause?: unknown }).cause ?? error;
    expect(cut).toBeInstanceOf(ProtocolError);
    const e = cut as ProtocolError;
    expect(e.message).toMatch(/^Response body from provider 'sm' was cut after 1440 bytes \(truncated\)/);
    expect([e.offset, e.partialOutput, e.retryable]).toEqual([1440, true, true]);
  });
});
