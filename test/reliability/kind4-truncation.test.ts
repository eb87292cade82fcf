/**
 * Kind 4, silent truncation: a stream that ends without its protocol's end marker, or whose
 * HTTP/2 stream the server reset with a non-zero code (SageMaker bidirectional RST_STREAM
 * INTERNAL_ERROR), is a failure, never a complete result: with a backup and `midStream:
 * 'resume'` the backup finishes the audio; alone, the call ends with MidStreamError. STT's
 * MidStreamError.partialText has the delivered finals one space apart. Servers speak the wire
 * on their own (an h2c server here, the event-stream framing written in test code).
 */
import { describe, expect, it } from 'vitest';
import {
  MidStreamError,
  ProtocolError,
  ProviderError,
  type RouterConfig,
  type TranscriptEvent,
  type VoxrouteError,
} from '../../src/index.js';
import { routedStream } from '../../src/routing/routed-stream.js';
import { sttCall } from '../../src/routing/stt.js';
import { sageMakerTts } from '../cases/wire/sagemaker-response.js';
import { answerPcm, concat, drain, httpServer, pcmSignal, router } from '../cases/wire/servers.js';
import { candidate, fakeRun } from '../routing/helpers.js';
import { payloadPart } from './wire/event-stream.js';
import { h2cEndpoint } from './wire/h2c-endpoint.js';

const AUDIO = pcmSignal(4800, 24_000, 1);
const BACKUP = pcmSignal(4800, 24_000, 2);

/** An h2c SageMaker bidirectional endpoint: reads the input, sends `parts`, then resets the stream. */
function resettingEndpoint(parts: Buffer[]): Promise<string> {
  return h2cEndpoint((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
    // On the first input frame: the parts, then RST_STREAM INTERNAL_ERROR (destroy with an error;
    // close(code) after both sides ended would send no reset at all).
    stream.once('data', () => {
      for (const part of parts) stream.write(part);
      stream.write(Buffer.alloc(0), () => stream.destroy(new Error('container crashed')));
    });
  });
}

const bidiTts = (url: string) => sageMakerTts(url, 'bidirectional');

describe('kind 4: a cut stream is a failure, never a complete result', () => {
  it('SageMaker bidirectional RST_STREAM INTERNAL_ERROR mid-stream: alone, MidStreamError', async () => {
    const url = await resettingEndpoint([payloadPart(AUDIO.subarray(0, 4800))]);
    const r = router({
      providers: { sm: bidiTts(url) },
      routes: { tts: { providers: ['sm'], strategy: 'priority', midStream: 'resume' } },
    } as RouterConfig);
    const { items, error } = await drain(r.tts({ text: 'Hello there.', voice: 'agent' }));
    expect(concat(items.map((c) => c.data)).equals(AUDIO.subarray(0, 4800))).toBe(true);
    expect(MidStreamError.isInstance(error)).toBe(true);
    // Seen as the body's error or, when the body ended first, as the stream's close code.
    const cause = (error as MidStreamError).cause as VoxrouteError;
    expect(ProtocolError.isInstance(cause)).toBe(true);
    expect(cause.retryable).toBe(true);
    expect(cause.message).toContain('RST_STREAM code 2');
    expect((error as MidStreamError).retryable).toBe(true);
  });

  it('SageMaker bidirectional RST_STREAM mid-stream with midStream resume: the backup finishes', async () => {
    const url = await resettingEndpoint([payloadPart(AUDIO.subarray(0, 4800))]);
    const backup = await httpServer((req, res) => {
      req.resume();
      req.on('end', () => answerPcm(res, BACKUP));
    });
    const r = router({
      providers: {
        sm: bidiTts(url),
        b: { kind: 'openai-compatible', baseUrl: backup.url, tts: { voices: { agent: 'alloy' } } },
      },
      routes: { tts: { providers: ['sm', 'b'], strategy: 'priority', midStream: 'resume' } },
    } as RouterConfig);
    const fallbacks: [string, string, boolean][] = [];
    r.on('fallback', (e) => fallbacks.push([e.provider, e.next, e.partialOutput]));
    const stream = r.tts({ text: 'Hello there.', voice: 'agent' });
    const { items, error } = await drain(stream);
    expect(error).toBeUndefined();
    // A fallback after the first chunk says so (the stream continues on b).
    expect(fallbacks).toEqual([['sm', 'b', true]]);
    expect(backup.hits).toBe(1);
    expect(items[0]!.data.byteLength).toBe(4800);
    expect(items.findIndex((c) => c.discontinuity)).toBe(1);
    expect((await stream.result).provider).toBe('b');
  });

  it('STT MidStreamError.partialText joins delivered finals with a space', async () => {
    const call = sttCall(
      { audio: (async function* () {})(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } },
      { closeSignal: new AbortController().signal, logger: undefined },
    );
    const run = fakeRun<TranscriptEvent>(
      [
        candidate('a', async function* () {
          yield { type: 'final', text: 'w0' };
          yield { type: 'partial', text: 'w1 w' };
          yield { type: 'final', text: 'w1' };
          throw new ProviderError('cut', { provider: 'a', retryable: true });
        }),
      ],
      { capability: 'stt', textOf: call.textOf, joinText: call.joinText },
    );
    const { items, error } = await drain(routedStream(run));
    expect(items.filter((e) => e.type === 'final').map((e) => e.text)).toEqual(['w0', 'w1']);
    expect(MidStreamError.isInstance(error)).toBe(true);
    expect((error as MidStreamError).partialText).toBe('w0 w1');
  });
});
