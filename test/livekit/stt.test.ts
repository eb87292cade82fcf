import { ReadableStream } from 'node:stream/web';
import { APIError, stt } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { describe, expect, it } from 'vitest';
import { silence } from '../../src/index.js';
import { levelDb } from '../../src/livekit/endpointer.js';
import * as voxroute from '../../src/livekit/index.js';
import { type RecordedFile, syntheticVoiceBytes } from '../../src/testing/index.js';
import { ALWAYS_503, framesOf, pcmOf, RETRY_3, twoProviders } from './helpers.js';

const PCM16K = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
const VOICE = syntheticVoiceBytes({ durationMs: 1500, sampleRate: 16_000 });
const T = stt.SpeechEventType;

/** An audio stream that never ends, as AgentSession's: `frames`, then nothing more. */
function endless(frames: AudioFrame[]): ReadableStream<AudioFrame> {
  return new ReadableStream<AudioFrame>({
    start(controller) {
      for (const frame of frames) controller.enqueue(frame);
    },
  });
}

/** Reads events until `until` returns true for one; returns them all. */
async function readUntil(
  stream: stt.SpeechStream,
  until: (e: stt.SpeechEvent) => boolean,
): Promise<stt.SpeechEvent[]> {
  const events: stt.SpeechEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (until(event)) break;
  }
  return events;
}

/** The event types, partial transcripts left out (their number depends on the provider's deltas). */
const kinds = (events: stt.SpeechEvent[]) =>
  events.filter((e) => e.type !== T.INTERIM_TRANSCRIPT).map((e) => e.type);

function uploads(mock: Awaited<ReturnType<typeof twoProviders>>['a']): Buffer[] {
  return mock.requests
    .filter((r) => r.endpoint === 'transcription')
    .map((r) => Buffer.from((r.form!.file as RecordedFile).bytes.subarray(44)));
}

describe('voxroute/livekit STT with the real @livekit/agents', () => {
  it('ends an utterance by its own rule on audio that never ends, and transcribes it on a non-streaming route', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { transcript: 'Table for two.' });
    const stream = new voxroute.STT(router).stream();
    const input = Buffer.concat([silence(PCM16K, 300), VOICE, silence(PCM16K, 1000)]);
    stream.updateInputStream(endless(framesOf(input, 16_000)));
    const events = await readUntil(stream, (e) => e.type === T.RECOGNITION_USAGE);
    expect(kinds(events)).toEqual([
      T.START_OF_SPEECH,
      T.END_OF_SPEECH,
      T.FINAL_TRANSCRIPT,
      T.RECOGNITION_USAGE,
    ]);
    const final = events.find((e) => e.type === T.FINAL_TRANSCRIPT)!.alternatives![0];
    // Partials (the provider streams its transcript) come between the end of speech and the final.
    const partials = events
      .filter((e) => e.type === T.INTERIM_TRANSCRIPT)
      .map((e) => e.alternatives![0].text);
    for (const partial of partials) expect(final.text.startsWith(partial.trim())).toBe(true);
    expect(final.text).toBe('Table for two.');
    // The uploaded audio is the input from 200 ms (pre-roll) before the first 10 ms frame louder
    // than -45 dBFS to 500 ms (the silence rule) after the last one.
    const loud = framesOf(input, 16_000).flatMap((f, i) => (levelDb(pcmOf([f])) > -45 ? [i] : []));
    const [sent] = uploads(b);
    const at = input.indexOf(sent!);
    expect([at, at + sent!.byteLength]).toEqual([
      (loud[0]! * 10 - 200) * 32,
      ((loud.at(-1)! + 1) * 10 + 500) * 32,
    ]);
    // LiveKit adds to startTimeOffset the wall-clock ms its own task took to start (0 or 1 ms).
    expect(final.startTime).toBeCloseTo(stream.startTimeOffset + at / 32_000, 6);
    expect(events.at(-1)!.recognitionUsage!.audioDuration).toBeCloseTo(sent!.byteLength / 32_000, 6);
    // The same utterance went to a (503) first: voxroute fell back, LiveKit did not retry.
    expect([a.calls('transcription'), b.calls('transcription')]).toEqual([1, 1]);
    expect(uploads(a)[0]!.equals(sent!)).toBe(true);
    stream.close();
  });

  it('two utterances become two calls whose finals keep their order and times', async () => {
    const { router, a } = await twoProviders({
      transcript: ({ call }) => (call === 1 ? 'First.' : 'Second.'),
    });
    const stream = new voxroute.STT(router).stream();
    const input = Buffer.concat([VOICE, silence(PCM16K, 800), VOICE, silence(PCM16K, 800)]);
    stream.updateInputStream(endless(framesOf(input, 16_000)));
    let seen = 0;
    const events = await readUntil(stream, (e) => e.type === T.FINAL_TRANSCRIPT && ++seen === 2);
    const texts = events.filter((e) => e.type === T.FINAL_TRANSCRIPT).map((e) => e.alternatives![0].text);
    expect(texts).toEqual(['First.', 'Second.']);
    // Two uploads, each a contiguous piece of the input, the second after the first.
    const [one, two] = uploads(a);
    const first = input.indexOf(one!);
    const next = input.indexOf(two!, first + one!.byteLength);
    expect([first, next > first + one!.byteLength - 1]).toEqual([0, true]);
    expect(next).toBeGreaterThanOrEqual((1500 + 800 - 200) * 32);
    const finals = events.filter((e) => e.type === T.FINAL_TRANSCRIPT).map((e) => e.alternatives![0]);
    const offset = stream.startTimeOffset;
    expect(finals[0]!.startTime).toBe(offset);
    expect(finals[1]!.startTime).toBeCloseTo(offset + next / 32_000, 6);
    stream.close();
  });

  it('a flush ends the utterance at once; 48 kHz input is resampled to the route rate', async () => {
    const { router, a } = await twoProviders({ transcript: 'Flushed.' });
    const stream = new voxroute.STT(router).stream();
    const voice48k = syntheticVoiceBytes({ durationMs: 600, sampleRate: 48_000 });
    for (const frame of framesOf(voice48k, 48_000)) stream.pushFrame(frame);
    stream.flush();
    const events = await readUntil(stream, (e) => e.type === T.FINAL_TRANSCRIPT);
    expect(kinds(events)).toEqual([T.START_OF_SPEECH, T.END_OF_SPEECH, T.FINAL_TRANSCRIPT]);
    expect(events.at(-1)!.alternatives![0].text).toBe('Flushed.');
    const wav = (a.requests[0]!.form!.file as RecordedFile).bytes;
    expect(new DataView(wav.buffer, wav.byteOffset).getUint32(24, true)).toBe(16_000);
    stream.close();
  });

  it('recognize() transcribes one buffer', async () => {
    const { router } = await twoProviders({ transcript: 'One buffer.' });
    const event = await new voxroute.STT(router).recognize(framesOf(VOICE, 16_000));
    expect(event.type).toBe(T.FINAL_TRANSCRIPT);
    expect(event.alternatives![0].text).toBe('One buffer.');
    expect(event.alternatives![0].endTime).toBe(1.5);
  });

  it('a route where every provider fails: one non-retryable APIError, no LiveKit retry on top', async () => {
    const { router, a, b } = await twoProviders({ script: ALWAYS_503 }, { script: ALWAYS_503 });
    const recognizer = new voxroute.STT(router);
    const errors: Array<{ error: unknown; recoverable: boolean }> = [];
    recognizer.on('error', (e) => errors.push(e));
    const stream = recognizer.stream({ connOptions: RETRY_3 });
    stream.updateInputStream(endless(framesOf(Buffer.concat([VOICE, silence(PCM16K, 600)]), 16_000)));
    const events: stt.SpeechEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([T.START_OF_SPEECH, T.END_OF_SPEECH]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.recoverable).toBe(false);
    expect(errors[0]!.error).toBeInstanceOf(APIError);
    expect((errors[0]!.error as APIError).retryable).toBe(false);
    expect([a.calls('transcription'), b.calls('transcription')]).toEqual([1, 1]);
  });
});
