import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineRun } from '../../examples/self-hosted-server/engines.js';
import { type SelfHostedServer, startSelfHostedServer } from '../../examples/self-hosted-server/server.js';
import { readWav } from '../../src/audio/index.js';
import type { AudioFormat } from '../../src/types/audio.js';

// Needs espeak-ng from Debian (`apt-get install -y espeak-ng`); run with
// `npx vitest run --config vitest.engines.config.ts`.
const SENTENCE = 'Ask not what your country can do for you, ask what you can do for your country.';
// About 4,000 characters: a few hundred ms of synthesis, minutes of audio.
const LONG_TEXT = Array.from(
  { length: 50 },
  (_, i) => `Sentence ${i + 1}: the quick brown fox jumps over the lazy dog again.`,
).join(' ');

let server: SelfHostedServer;
const runs: EngineRun[] = [];

beforeAll(async () => {
  server = await startSelfHostedServer({ port: 0, onEngineRun: (run) => runs.push(run) });
});
afterAll(() => server.close());

function speech(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.baseUrl}/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', voice: 'alloy', ...body }),
    ...(signal ? { signal } : {}),
  });
}

async function readSpeechWav(response: Response): Promise<{ format: AudioFormat; samples: Int16Array }> {
  const wav = readWav(response.body as unknown as AsyncIterable<Uint8Array>);
  const format = await wav.format;
  const parts: Uint8Array[] = [];
  for await (const part of wav.data) parts.push(part);
  const bytes = Buffer.concat(parts);
  return { format, samples: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2) };
}

/** Share of 20 ms frames (at 22050 Hz) whose RMS is above -40 dBFS. */
function voicedShare(samples: Int16Array): number {
  const frame = 441;
  let voiced = 0;
  let frames = 0;
  for (let start = 0; start + frame <= samples.length; start += frame) {
    let sum = 0;
    for (let i = start; i < start + frame; i++) sum += samples[i]! * samples[i]!;
    frames++;
    if (Math.sqrt(sum / frame) > 328) voiced++;
  }
  return voiced / frames;
}

describe('self-hosted server /v1/audio/speech on espeak-ng', () => {
  it('returns a WAV of s16le 22050 Hz mono speech of a plausible length, shorter at speed 2', async () => {
    const normal = await speech({ input: SENTENCE });
    expect(normal.status).toBe(200);
    expect(normal.headers.get('content-type')).toBe('audio/wav');
    const { format, samples } = await readSpeechWav(normal);
    expect(format).toEqual({ encoding: 'pcm_s16le', sampleRate: 22050, channels: 1 });
    const seconds = samples.length / 22050;
    // 17 words: espeak-ng speaks them in about 4.3 s at its default 175 words per minute.
    expect(seconds).toBeGreaterThan(2.5);
    expect(seconds).toBeLessThan(8);
    expect(voicedShare(samples)).toBeGreaterThan(0.5);
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(8000);

    const fast = await readSpeechWav(await speech({ input: SENTENCE, speed: 2 }));
    const ratio = fast.samples.length / samples.length;
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.7);
  });

  it("response_format 'pcm' is the same speech resampled to 24 kHz: round(N x 24000 / 22050) samples", async () => {
    const wav = await readSpeechWav(await speech({ input: SENTENCE, voice: 'echo' }));
    const pcmResponse = await speech({ input: SENTENCE, voice: 'echo', response_format: 'pcm' });
    expect(pcmResponse.headers.get('content-type')).toBe('audio/pcm');
    const pcm = new Uint8Array(await pcmResponse.arrayBuffer());
    expect(pcm.byteLength).toBe(2 * Math.round((wav.samples.length * 24000) / 22050));
    expect(pcm.subarray(0, 4)).not.toEqual(new TextEncoder().encode('RIFF'));
  });

  it('streams: the first audio bytes reach the client before espeak-ng has finished a long text', async () => {
    runs.length = 0;
    const response = await speech({ input: LONG_TEXT });
    const run = runs[0]!;
    let exitedAt = Number.POSITIVE_INFINITY;
    const exited = run.exited.then((exit) => {
      exitedAt = performance.now();
      return exit;
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = performance.now();
    expect(first.value?.subarray(0, 4)).toEqual(new TextEncoder().encode('RIFF'));
    let bytes = first.value!.byteLength;
    for (let next = await reader.read(); !next.done; next = await reader.read())
      bytes += next.value.byteLength;
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(firstAt).toBeLessThan(exitedAt);
    // Minutes of audio: far more than any socket and pipe buffers hold, so it cannot have been sent in one piece.
    expect(bytes / 2 / 22050).toBeGreaterThan(60);
  });

  it('kills espeak-ng when the client disconnects mid-stream', async () => {
    runs.length = 0;
    const controller = new AbortController();
    const response = await speech({ input: LONG_TEXT }, controller.signal);
    await response.body!.getReader().read();
    controller.abort();
    expect(await runs[0]!.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(server.runningEngines).toBe(0);
  });

  it('answers 400 invalid_voice for a voice espeak-ng does not have', async () => {
    const response = await speech({ input: 'Hello.', voice: 'xx-nowhere' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ param: 'voice', code: 'invalid_voice' });
  });
});
