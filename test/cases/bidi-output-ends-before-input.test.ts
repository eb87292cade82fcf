/**
 * A SageMaker bidirectional STT stream whose output ends (a clean END_STREAM, or the
 * transcript protocol's `{"type":"done"}`) while the caller's audio is still being sent. The
 * adapter kept writing audio that nobody read, then reported the call complete with the
 * transcript so far (the speech after the end silently lost); with live audio that never ends,
 * the call never ended. The end of output before the end of input is a truncation: a retryable
 * ProtocolError (`partialOutput` when a transcript was delivered), so the router falls back or
 * ends with MidStreamError, as for Cartesia (`done` before `flush_done`) and ElevenLabs (close
 * before `isFinal`). The h2c endpoints speak the wire on their own (node:http2, event-stream
 * frames written and read in test code), not through voxroute's SageMaker mock.
 */
import { constants, type ServerHttp2Stream } from 'node:http2';
import { describe, expect, it } from 'vitest';
import {
  AllProvidersFailedError,
  MidStreamError,
  ProtocolError,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { payloadPart } from '../reliability/wire/event-stream.js';
import { h2cEndpoint } from '../reliability/wire/h2c-endpoint.js';
import { EXAMPLE_CREDENTIALS } from './wire/sagemaker-response.js';
import { batchStt, drain, pcmSignal, router } from './wire/servers.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** 1 s of 16 kHz PCM s16le: ten 100 ms chunks of 3200 bytes. */
const SPEECH = pcmSignal(16_000, 16_000, 2);
const CHUNKS = Array.from({ length: 10 }, (_, i) => SPEECH.subarray(i * 3200, (i + 1) * 3200));
const credentials = EXAMPLE_CREDENTIALS;
const line = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);
const EARLY = "Provider 'a' ended the bidirectional stream's output before the end of the input (truncated)";

/** An h2c bidirectional endpoint: `answer` gets each invocation's stream (200 already sent). */
const h2Endpoint = (answer: (stream: ServerHttp2Stream) => void): Promise<string> =>
  h2cEndpoint((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
    answer(stream);
  });

const bidi = (url: string) => ({
  kind: 'sagemaker' as const,
  region: 'us-east-1',
  endpointName: 'asr',
  endpointUrl: url,
  credentials,
  stt: { payload: 'raw-pcm' as const, sampleRate: 16_000, stream: 'bidirectional' as const },
});

/**
 * The caller's live microphone: yields what is pushed and never ends by itself. A pending
 * `next()` settles done when `return()` is called (as a live source would stop), which is
 * recorded in `released`.
 */
class LiveAudio implements AsyncIterable<Uint8Array> {
  readonly #queue: Uint8Array[] = [];
  #waiting: ((step: IteratorResult<Uint8Array>) => void) | undefined;
  released = false;
  push(...chunks: Uint8Array[]): void {
    this.#queue.push(...chunks);
    this.#deliver();
  }
  #deliver(): void {
    const next = this.#queue.shift();
    if (!this.#waiting || !next) {
      if (next) this.#queue.unshift(next);
      return;
    }
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting({ value: next, done: false });
  }
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: () =>
        this.released
          ? Promise.resolve({ value: undefined, done: true })
          : new Promise((resolve) => {
              this.#waiting = resolve;
              this.#deliver();
            }),
      return: () => {
        this.released = true;
        this.#waiting?.({ value: undefined, done: true });
        this.#waiting = undefined;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/** Resolves when the server side of `stream` has closed, with its RST_STREAM code. */
function serverClose(stream: ServerHttp2Stream): Promise<number | undefined> {
  return new Promise((resolve) => stream.once('close', () => resolve(stream.rstCode)));
}

/** The messages of an event-stream body: [headers bytes, payload] of each, in order. */
function messages(body: Buffer): Array<{ headers: string; payload: Buffer }> {
  const out: Array<{ headers: string; payload: Buffer }> = [];
  for (let at = 0; at + 12 <= body.length; ) {
    const total = body.readUInt32BE(at);
    const headersLength = body.readUInt32BE(at + 4);
    if (at + total > body.length) break;
    out.push({
      headers: body.subarray(at + 12, at + 12 + headersLength).toString('latin1'),
      payload: body.subarray(at + 12 + headersLength, at + total - 4),
    });
    at += total;
  }
  return out;
}

describe('bidirectional output that ends before the input', () => {
  it('a clean END_STREAM after one final while live audio flows: MidStreamError of a retryable ProtocolError (partialOutput), prompt, audio released, stream cancelled', async () => {
    let aClosed: Promise<number | undefined> | undefined;
    const url = await h2Endpoint((stream) => {
      aClosed = serverClose(stream);
      stream.once('data', () => {
        stream.write(payloadPart(line({ type: 'final', text: 'hello' })));
        stream.end();
      });
    });
    const r = router({
      providers: { a: bidi(url) },
      routes: { stt: { providers: ['a'], firstChunkTimeoutMs: false } },
    } as RouterConfig);
    const audio = new LiveAudio();
    audio.push(CHUNKS[0]!, CHUNKS[1]!);
    const { items, error } = await drain(r.stt({ audio, format: FORMAT }));
    // The caller never ended its audio: the call ended because of the server's early end.
    expect(items).toMatchObject([{ type: 'final', text: 'hello' }]);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).retryable).toBe(true);
    expect((error as MidStreamError).partialOutput).toBe(true);
    const cause = (error as MidStreamError).cause as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.message).toBe(EARLY);
    expect(cause.retryable).toBe(true);
    expect(cause.partialOutput).toBe(true);
    expect(cause.provider).toBe('a');
    expect(audio.released).toBe(true);
    // The client cancelled its half of the stream (it would stay open while audio flowed).
    expect(await aClosed).toBe(constants.NGHTTP2_CANCEL);
  });

  it('a clean END_STREAM before any transcript while audio flows: A fails with a retryable ProtocolError and batch B transcribes the whole audio from byte 0', async () => {
    const url = await h2Endpoint((stream) => {
      stream.once('data', () => stream.end());
    });
    const b = await batchStt('the whole utterance');
    const r = router({
      providers: {
        a: bidi(url),
        b: { kind: 'openai-compatible', baseUrl: b.url, stt: { model: 'whisper' } },
      },
      routes: { stt: { providers: ['a', 'b'], strategy: 'priority', firstChunkTimeoutMs: false } },
    } as RouterConfig);
    const fallbacks: Array<{ provider: string; error: unknown; partialOutput: boolean }> = [];
    let fellBack!: () => void;
    const fallback = new Promise<void>((resolve) => (fellBack = resolve));
    r.on('fallback', (e) => {
      fallbacks.push({ provider: e.provider, error: e.error, partialOutput: e.partialOutput });
      fellBack();
    });
    // One chunk, then the rest only once A has failed: A's output ended while audio was flowing.
    async function* speech(): AsyncGenerator<Uint8Array> {
      yield CHUNKS[0]!;
      await fallback;
      yield* CHUNKS.slice(1);
    }
    const stream = r.stt({ audio: speech(), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toMatchObject([{ type: 'final', text: 'the whole utterance' }]);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]!.provider).toBe('a');
    expect(fallbacks[0]!.partialOutput).toBe(false);
    const aError = fallbacks[0]!.error as VoxrouteError;
    expect(ProtocolError.isInstance(aError)).toBe(true);
    expect(aError.message).toBe(EARLY);
    expect(aError.retryable).toBe(true);
    expect(aError.partialOutput).toBe(false);
    expect(b.uploads).toHaveLength(1);
    expect(b.uploads[0]!.equals(SPEECH)).toBe(true);
    const result = await stream.result;
    expect(result.provider).toBe('b');
    expect(result.attempts.map((x) => [x.provider, x.outcome])).toEqual([
      ['a', 'failed'],
      ['b', 'success'],
    ]);
  });

  it('an end marker ({"type":"done"}) while live audio flows and the stream stays open: MidStreamError of a retryable ProtocolError, stream cancelled', async () => {
    let aClosed: Promise<number | undefined> | undefined;
    const url = await h2Endpoint((stream) => {
      aClosed = serverClose(stream);
      stream.once('data', () => {
        stream.write(
          Buffer.concat([
            payloadPart(line({ type: 'final', text: 'hello' })),
            payloadPart(line({ type: 'done' })),
          ]),
        );
      });
    });
    const r = router({
      providers: { a: bidi(url) },
      routes: { stt: { providers: ['a'], firstChunkTimeoutMs: false } },
    } as RouterConfig);
    const audio = new LiveAudio();
    audio.push(CHUNKS[0]!);
    const { items, error } = await drain(r.stt({ audio, format: FORMAT }));
    expect(items).toMatchObject([{ type: 'final', text: 'hello' }]);
    expect(MidStreamError.isInstance(error)).toBe(true);
    const cause = (error as MidStreamError).cause as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.message).toBe(EARLY);
    expect(cause.retryable).toBe(true);
    expect(cause.partialOutput).toBe(true);
    expect(audio.released).toBe(true);
    expect(await aClosed).toBe(constants.NGHTTP2_CANCEL);
  });

  it('with one provider and no transcript: AllProvidersFailedError, retryable, its attempt the ProtocolError', async () => {
    const url = await h2Endpoint((stream) => {
      stream.once('data', () => stream.end());
    });
    const r = router({
      providers: { a: bidi(url) },
      routes: { stt: { providers: ['a'], firstChunkTimeoutMs: false } },
    } as RouterConfig);
    const audio = new LiveAudio();
    audio.push(CHUNKS[0]!);
    const { items, error } = await drain(r.stt({ audio, format: FORMAT }));
    expect(items).toEqual([]);
    expect(AllProvidersFailedError.isInstance(error)).toBe(true);
    expect((error as AllProvidersFailedError).retryable).toBe(true);
    const attempt = (error as AllProvidersFailedError).attempts[0]!.error as VoxrouteError;
    expect(ProtocolError.isInstance(attempt)).toBe(true);
    expect(attempt.message).toBe(EARLY);
    expect(attempt.partialOutput).toBe(false);
    expect(audio.released).toBe(true);
  });

  it('control: output that ends as soon as the COMPLETE part arrives (before the end frame) is a complete transcript', async () => {
    const heard: Buffer[] = [];
    const url = await h2Endpoint((stream) => {
      let body = Buffer.alloc(0);
      stream.on('data', (data: Buffer) => {
        body = Buffer.concat([body, data]);
        const parts = messages(body).map((envelope) => messages(envelope.payload)[0]);
        const complete = parts.find((part) => part?.headers.includes('COMPLETE'));
        if (!complete || stream.writableEnded) return;
        for (const part of parts) if (part) heard.push(part.payload);
        stream.end(payloadPart(line({ type: 'final', text: 'all of it' })));
      });
    });
    const r = router({
      providers: { a: bidi(url) },
      routes: { stt: { providers: ['a'], firstChunkTimeoutMs: false } },
    } as RouterConfig);
    async function* speech(): AsyncGenerator<Uint8Array> {
      yield* CHUNKS;
    }
    const stream = r.stt({ audio: speech(), format: FORMAT });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    expect(items).toMatchObject([{ type: 'final', text: 'all of it' }]);
    expect(Buffer.concat(heard).equals(SPEECH)).toBe(true);
    expect((await stream.result).provider).toBe('a');
  });
});
