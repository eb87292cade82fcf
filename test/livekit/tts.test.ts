import { ReadableStream } from 'node:stream/web';
import { APIError, tts } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { describe, expect, it } from 'vitest';
import * as voxroute from '../../src/livekit/index.js';
import { mockSpeechPcm } from '../../src/testing/index.js';
import { ALWAYS_503, pcmOf, RETRY_3, twoProviders } from './helpers.js';

type Item = tts.SynthesizedAudio | typeof tts.SynthesizeStream.END_OF_STREAM;

/** Everything a stream yields until it ends. */
async function drain(stream: AsyncIterable<Item>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

const textStream = (pieces: string[]) =>
  new ReadableStream<string>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });

describe('voxroute/livekit TTS with the real @livekit/agents', () => {
  it('stream(): text from updateInputStream is spoken by the provider that served after a 503, in 24 kHz mono frames', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 });
    const speech = new voxroute.TTS(router, { voice: 'agent' });
    expect([speech.sampleRate, speech.numChannels, speech.capabilities.streaming]).toEqual([24_000, 1, true]);
    const stream = speech.stream();
    stream.updateInputStream(textStream(['Your table ', 'is booked. ', 'See you at eight.']));
    const items = await drain(stream);
    // One segment: frames, the last one final, then END_OF_STREAM.
    expect(items.at(-1)).toBe(tts.SynthesizeStream.END_OF_STREAM);
    const frames = items.slice(0, -1) as tts.SynthesizedAudio[];
    expect(frames.map((f) => f.final)).toEqual([...frames.slice(1).map(() => false), true]);
    expect(new Set(frames.map((f) => `${f.frame.sampleRate}/${f.frame.channels}`))).toEqual(
      new Set(['24000/1']),
    );
    // The audio is exactly what b produced for the text it received, request by request.
    const inputs = b.requests
      .filter((r) => r.endpoint === 'speech')
      .map((r) => (r.body as { input: string }).input);
    expect(inputs.join(' ').replace(/\s+/g, ' ').trim()).toBe('Your table is booked. See you at eight.');
    const expected = Buffer.concat(inputs.map((text) => Buffer.from(mockSpeechPcm(text))));
    expect(pcmOf(frames.map((f) => f.frame)).equals(expected)).toBe(true);
    expect(a.calls('speech')).toBe(1);
  });

  it('stream(): each flush ends a segment (its own END_OF_STREAM); segments keep their order', async () => {
    const { router, a } = await twoProviders();
    const stream = new voxroute.TTS(router, { voice: 'agent' }).stream();
    stream.pushText('First part.');
    stream.flush();
    stream.pushText('Second part.');
    stream.endInput();
    const items = await drain(stream);
    const ends = items.flatMap((item, i) => (item === tts.SynthesizeStream.END_OF_STREAM ? [i] : []));
    expect(ends).toHaveLength(2);
    const segment = (from: number, to: number) =>
      pcmOf(items.slice(from, to).map((i) => (i as tts.SynthesizedAudio).frame));
    expect(segment(0, ends[0]!).equals(Buffer.from(mockSpeechPcm('First part.')))).toBe(true);
    expect(segment(ends[0]! + 1, ends[1]!).equals(Buffer.from(mockSpeechPcm('Second part.')))).toBe(true);
    expect(a.requests.map((r) => (r.body as { input: string }).input)).toEqual([
      'First part.',
      'Second part.',
    ]);
  });

  it('synthesize(): one text at the asked sample rate (resampled by voxroute)', async () => {
    const { router } = await twoProviders();
    const speech = new voxroute.TTS(router, { voice: 'agent', sampleRate: 16_000 });
    const frame: AudioFrame = await speech.synthesize('Hello there.').collect();
    expect([frame.sampleRate, frame.channels]).toEqual([16_000, 1]);
    // 12 characters x 60 ms = 720 ms: 11 520 samples at 16 kHz.
    expect(frame.samplesPerChannel).toBe(11_520);
  });

  it('a route where every provider fails: one non-retryable APIError, no LiveKit retry on top', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { script: ALWAYS_503 });
    const speech = new voxroute.TTS(router, { voice: 'agent' });
    const errors: Array<{ error: unknown; recoverable: boolean }> = [];
    speech.on('error', (e) => errors.push(e));
    const stream = speech.stream({ connOptions: RETRY_3 });
    stream.updateInputStream(textStream(['Hello.']));
    expect(await drain(stream)).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.recoverable).toBe(false);
    expect(errors[0]!.error).toBeInstanceOf(APIError);
    expect((errors[0]!.error as APIError).retryable).toBe(false);
    expect((errors[0]!.error as APIError).body).toEqual({ code: 'ALL_PROVIDERS_FAILED' });
    expect([a.calls('speech'), b.calls('speech')]).toEqual([1, 1]);

    const chunked = speech.synthesize('Hello.', RETRY_3);
    expect(await drain(chunked)).toEqual([]);
    expect(errors).toHaveLength(2);
    expect([a.calls('speech'), b.calls('speech')]).toEqual([2, 2]);
  });

  it('close() during playback (barge-in) closes the provider call and reports no error', async () => {
    const { router, a } = await twoProviders({ script: { chunkBytes: 4800, chunkGapMs: 50 } });
    const speech = new voxroute.TTS(router, { voice: 'agent' });
    const errors: unknown[] = [];
    speech.on('error', (e) => errors.push(e));
    const stream = speech.stream();
    stream.updateInputStream(textStream(['A long answer that takes a while to say out loud.']));
    const first = await stream.next();
    expect(first.done).toBe(false);
    stream.close();
    expect(await a.requests[0]!.ended).toBe('aborted');
    expect(errors).toEqual([]);
  });

  it('refuses a missing voice or a bad sample rate with TypeError', async () => {
    const { router } = await twoProviders();
    expect(() => new voxroute.TTS(router, { voice: '' })).toThrow(TypeError);
    expect(() => new voxroute.TTS(router, { voice: 'agent', sampleRate: 0 })).toThrow(/sampleRate/);
  });
});
