import { describe, expect, it } from 'vitest';
import { ProtocolError, ProviderError } from '../../../src/errors/index.js';
import { isTakeable, type Takeable } from '../../../src/internal/takeable.js';
import { createOpenAiAdapter } from '../../../src/providers/openai/index.js';
import type { OpenAiTtsOptions } from '../../../src/providers/openai/options.js';
import type { ProviderAudio, ProviderTtsRequest } from '../../../src/providers/types.js';
import { serverPerTest } from '../../helpers/server-per-test.js';
import { wavHeaderByHand } from '../../helpers/wav-header.js';
import {
  attemptOf,
  collect,
  collectUntilError,
  data,
  sendJson,
  sendSse,
  type startServer,
} from './helpers.js';

const request: ProviderTtsRequest = {
  text: 'Your table is booked.',
  voice: 'af_heart',
  format: { encoding: 'pcm_s16le', sampleRate: 24000 },
  language: 'en',
};

/** `n` bytes counting up from `start` (mod 256). */
function ramp(n: number, start = 0): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => (start + i) % 256));
}

/** A canonical 44-byte WAV header, written by hand (independent of src/audio). */
const wavHeaderBytes = (tag: number, rate: number, bits: number, dataSize: number): Buffer =>
  wavHeaderByHand(rate, dataSize, { tag, bits });

function joined(audio: ProviderAudio[]): Buffer {
  return Buffer.concat(audio.map((a) => a.data));
}

/** A loopback server and an HTTP transport per test, closed after it. */
const loop = serverPerTest();

async function speak(
  tts: OpenAiTtsOptions,
  respond: Parameters<typeof startServer>[0],
  req: ProviderTtsRequest = request,
): Promise<AsyncIterable<ProviderAudio>> {
  const server = await loop.serve(respond);
  const adapter = createOpenAiAdapter({
    name: 'kokoro',
    kind: 'openai-compatible',
    baseUrl: `${server.origin}/v1`,
    apiKey: 'k-1',
    tts,
  });
  return adapter.tts!.synthesize(req, attemptOf(loop.transport));
}

describe('OpenAI speech: raw PCM', () => {
  it('yields the body bytes as they come, labelled pcm_s16le at the configured rate, and sends the JSON body', async () => {
    const audio = await collect(
      await speak(
        { model: 'kokoro', responseFormat: 'pcm', streamFormat: 'audio', sampleRate: 24000 },
        async (_req, res) => {
          res.writeHead(200, { 'content-type': 'audio/pcm' });
          res.write(ramp(4801));
          await new Promise((r) => setTimeout(r, 5));
          res.end(ramp(1999, 4801));
        },
      ),
    );
    expect(joined(audio).equals(ramp(6800))).toBe(true);
    for (const chunk of audio) expect(chunk.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000 });
    const [req] = loop.server.requests;
    expect(req?.path).toBe('/v1/audio/speech');
    expect(req?.headers.authorization).toBe('Bearer k-1');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req!.body.toString())).toEqual({
      model: 'kokoro',
      input: 'Your table is booked.',
      voice: 'af_heart',
      response_format: 'pcm',
    });
  });

  it('sends speed and the request model, and labels a 22050 Hz server correctly', async () => {
    const audio = await collect(
      await speak(
        { model: 'kokoro', responseFormat: 'pcm', streamFormat: 'audio', sampleRate: 22050 },
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(ramp(100));
        },
        { ...request, model: 'tts-1-hd', speed: 1.25 },
      ),
    );
    expect(audio.map((a) => a.format)).toEqual([{ encoding: 'pcm_s16le', sampleRate: 22050 }]);
    expect(JSON.parse(loop.server.requests[0]!.body.toString())).toEqual({
      model: 'tts-1-hd',
      input: 'Your table is booked.',
      voice: 'af_heart',
      response_format: 'pcm',
      speed: 1.25,
    });
  });

  it('no model in the request or the options: kind openai sends gpt-4o-mini-tts (OpenAI requires model), openai-compatible none', async () => {
    const server = await loop.serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(ramp(100));
    });
    for (const kind of ['openai', 'openai-compatible'] as const) {
      const adapter = createOpenAiAdapter({
        name: 'oa',
        kind,
        baseUrl: `${server.origin}/v1`,
        apiKey: 'k-1',
        tts: { responseFormat: 'pcm', streamFormat: 'audio' },
      });
      await collect(adapter.tts!.synthesize(request, attemptOf(loop.transport)));
    }
    const bodies = server.requests.map((r) => JSON.parse(r.body.toString()));
    const body = { input: 'Your table is booked.', voice: 'af_heart', response_format: 'pcm' };
    expect(bodies).toEqual([{ model: 'gpt-4o-mini-tts', ...body }, body]);
  });

  it('C29: a body shorter than its Content-Length (48000 declared, 30000 sent) is a ProtocolError', async () => {
    const { items, error } = await collectUntilError(
      await speak({ responseFormat: 'pcm', streamFormat: 'audio' }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': '48000' });
        res.write(ramp(30000), () => res.socket?.end());
      }),
    );
    expect(joined(items).equals(ramp(30000))).toBe(true);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'kokoro', retryable: true, partialOutput: true });
  });

  it('C11: a compressed answer to a pcm request is refused, never labelled as PCM', async () => {
    const { items, error } = await collectUntilError(
      await speak({ responseFormat: 'pcm', streamFormat: 'audio' }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        res.end(ramp(417));
      }),
    );
    expect(items).toEqual([]);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('audio/mpeg');
  });

  it('C11: a WAV answer to a pcm request is read as WAV and labelled with its header format', async () => {
    const audio = await collect(
      await speak({ responseFormat: 'pcm', streamFormat: 'audio', sampleRate: 24000 }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(Buffer.concat([wavHeaderBytes(1, 16000, 16, 200), ramp(200)]));
      }),
    );
    expect(joined(audio).equals(ramp(200))).toBe(true);
    expect(audio.every((a) => a.format.encoding === 'pcm_s16le' && a.format.sampleRate === 16000)).toBe(true);
  });
});

describe('OpenAI speech: WAV', () => {
  it('streams the data of a placeholder-size WAV with the header format, split anywhere', async () => {
    const body = Buffer.concat([wavHeaderBytes(1, 22050, 16, 0xffffffff), ramp(1000)]);
    const audio = await collect(
      await speak({ model: 'kokoro', responseFormat: 'wav', streamFormat: 'audio' }, async (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.write(body.subarray(0, 30));
        await new Promise((r) => setTimeout(r, 5));
        res.write(body.subarray(30, 501));
        await new Promise((r) => setTimeout(r, 5));
        res.end(body.subarray(501));
      }),
    );
    expect(joined(audio).equals(ramp(1000))).toBe(true);
    for (const chunk of audio)
      expect(chunk.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 });
    expect(JSON.parse(loop.server.requests[0]!.body.toString()).response_format).toBe('wav');
  });

  it('labels a mu-law WAV as mu-law', async () => {
    const audio = await collect(
      await speak({ responseFormat: 'wav', streamFormat: 'audio' }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(Buffer.concat([wavHeaderBytes(7, 8000, 8, 80), ramp(80)]));
      }),
    );
    expect(joined(audio).equals(ramp(80))).toBe(true);
    expect(audio[0]?.format).toMatchObject({ encoding: 'mulaw', sampleRate: 8000 });
  });

  it('C29: an exact-size data chunk that the body ends early is truncated', async () => {
    const { items, error } = await collectUntilError(
      await speak({ responseFormat: 'wav', streamFormat: 'audio' }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(Buffer.concat([wavHeaderBytes(1, 24000, 16, 4800), ramp(3000)]));
      }),
    );
    expect(joined(items).equals(ramp(3000))).toBe(true);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'kokoro', retryable: true, partialOutput: true });
  });

  it('a body that is not a WAV is a ProtocolError with the offset', async () => {
    const { error } = await collectUntilError(
      await speak({ responseFormat: 'wav', streamFormat: 'audio' }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(ramp(64));
      }),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'kokoro', offset: 0, partialOutput: false });
  });
});

describe('OpenAI speech: SSE', () => {
  const sse: OpenAiTtsOptions = {
    model: 'speaches-ai/Kokoro-82M-v1.0-ONNX',
    responseFormat: 'wav',
    streamFormat: 'sse',
    sampleRate: 24000,
  };

  it("decodes speech.audio.delta until done (speaches' token_usage), sending stream_format sse with pcm", async () => {
    const audio = await collect(
      await speak(sse, (_req, res) =>
        sendSse(res, [
          data({ type: 'speech.audio.delta', audio: ramp(301).toString('base64') }),
          data({ type: 'speech.audio.delta', audio: ramp(99, 301).toString('base64') }),
          data({
            type: 'speech.audio.done',
            token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
          }),
        ]),
      ),
    );
    expect(joined(audio).equals(ramp(400))).toBe(true);
    expect(audio.map((a) => a.data.byteLength)).toEqual([301, 99]);
    for (const chunk of audio) expect(chunk.format).toEqual({ encoding: 'pcm_s16le', sampleRate: 24000 });
    expect(loop.server.requests[0]!.headers.accept).toBe('text/event-stream');
    expect(JSON.parse(loop.server.requests[0]!.body.toString())).toEqual({
      model: 'speaches-ai/Kokoro-82M-v1.0-ONNX',
      input: 'Your table is booked.',
      voice: 'af_heart',
      response_format: 'pcm',
      stream_format: 'sse',
    });
  });

  it('takes the audio of a delta already read by a plain call (take), after the first read', async () => {
    let finish!: () => void;
    const audio = await speak(sse, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Both deltas in one write: they arrive in one read.
      res.write(
        data({ type: 'speech.audio.delta', audio: ramp(6).toString('base64') }) +
          data({ type: 'speech.audio.delta', audio: ramp(4, 6).toString('base64') }),
      );
      finish = () => res.end(data({ type: 'speech.audio.done' }));
    });
    const iterator = audio[Symbol.asyncIterator]();
    expect(isTakeable(iterator)).toBe(true);
    const first = await iterator.next();
    expect([...(first.value as ProviderAudio).data]).toEqual([...ramp(6)]);
    const second = (iterator as Takeable<ProviderAudio>).take();
    expect(second?.done).toBe(false);
    expect([...(second!.value as ProviderAudio).data]).toEqual([...ramp(4, 6)]);
    expect((iterator as Takeable<ProviderAudio>).take()).toBeUndefined();
    finish();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("accepts OpenAI's done with usage followed by [DONE]", async () => {
    const audio = await collect(
      await speak(sse, (_req, res) =>
        sendSse(res, [
          data({ type: 'speech.audio.delta', audio: ramp(10).toString('base64') }),
          data({
            type: 'speech.audio.done',
            usage: { input_tokens: 14, output_tokens: 101, total_tokens: 115 },
          }),
          data('[DONE]'),
        ]),
      ),
    );
    expect(joined(audio).equals(ramp(10))).toBe(true);
  });

  it('C29: an SSE stream that ends without speech.audio.done is truncated', async () => {
    const { items, error } = await collectUntilError(
      await speak(sse, (_req, res) =>
        sendSse(res, [data({ type: 'speech.audio.delta', audio: ramp(8).toString('base64') })]),
      ),
    );
    expect(joined(items).equals(ramp(8))).toBe(true);
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, partialOutput: true });
  });

  it('C06: an error event after audio is a ProviderError with partialOutput', async () => {
    const { items, error } = await collectUntilError(
      await speak(sse, (_req, res) =>
        sendSse(res, [
          data({ type: 'speech.audio.delta', audio: ramp(8).toString('base64') }),
          data({ type: 'error', error: { type: 'server_error', code: 'engine_crashed', message: 'boom' } }),
        ]),
      ),
    );
    expect(items).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ providerCode: 'engine_crashed', retryable: true, partialOutput: true });
  });
});

describe('OpenAI speech: FastAPI errors', () => {
  it("Kokoro's {detail:{error,message,type}} 400 maps to a non-retryable ProviderError", async () => {
    const { error } = await collectUntilError(
      await speak({ responseFormat: 'pcm', streamFormat: 'audio' }, (_req, res) =>
        sendJson(res, 400, {
          detail: {
            error: 'invalid_model',
            message: 'Unsupported model: tts-9',
            type: 'invalid_request_error',
          },
        }),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      providerCode: 'invalid_model',
      providerType: 'invalid_request_error',
      retryable: false,
      provider: 'kokoro',
    });
    expect((error as Error).message).toContain('Unsupported model: tts-9');
  });

  it("speaches' {detail:'...'} 422 keeps the message", async () => {
    const { error } = await collectUntilError(
      await speak({ responseFormat: 'pcm', streamFormat: 'sse' }, (_req, res) =>
        sendJson(res, 422, { detail: 'Speed must be between 0.25 and 4.0' }),
      ),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 422, retryable: false });
    expect((error as Error).message).toContain('Speed must be between 0.25 and 4.0');
  });

  it("Kokoro's 500 processing_error is retryable", async () => {
    const { error } = await collectUntilError(
      await speak({ responseFormat: 'pcm', streamFormat: 'audio' }, (_req, res) =>
        sendJson(res, 500, {
          detail: { error: 'processing_error', message: 'Failed to generate audio', type: 'server_error' },
        }),
      ),
    );
    expect(error).toMatchObject({ status: 500, retryable: true, providerCode: 'processing_error' });
  });
});
