/**
 * A tts() chunk's `format` is frozen and owned by the call. Without `format`, every chunk (and
 * every audio event of voiceTurn()) carried the exported DEFAULT_TTS_FORMAT object itself,
 * unfrozen: `chunk.format.sampleRate = 8000` made every later default call of the process speak
 * at 8 kHz. With a `format`, chunks carried the caller's own object, so changing it mid-call
 * relabelled the rest of the call. Now the default is frozen, and an explicit format is copied
 * once per call, field for field, into a frozen object. Loopback OpenAI-compatible mock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AudioChunk,
  type AudioFormat,
  createRouter,
  DEFAULT_TTS_FORMAT,
  type Router,
  voiceTurn,
} from '../../src/index.js';
import { type MockProviders, startMockProviders, syntheticAudio } from '../../src/testing/index.js';
import { ONE_PROVIDER_CONFIG } from '../helpers/mock-providers.js';

const TEXT = 'Hi there.';
/** Bytes the mock speaks for TEXT: the same audio at 24 kHz (the default) and at 8 kHz. */
const BYTES_24K = 25_920;
const BYTES_8K = 8_640;

let mocks: MockProviders;
let router: Router;
beforeAll(async () => {
  mocks = await startMockProviders(ONE_PROVIDER_CONFIG);
  router = createRouter(mocks.config);
});
afterAll(async () => {
  await router.close();
  await mocks.close();
});

async function speak(format?: AudioFormat, during?: (chunk: AudioChunk) => void) {
  const chunks: AudioChunk[] = [];
  for await (const chunk of router.tts({ text: TEXT, voice: 'agent', ...(format ? { format } : {}) })) {
    chunks.push(chunk);
    during?.(chunk);
  }
  return { chunks, bytes: chunks.reduce((n, c) => n + c.data.byteLength, 0) };
}

describe('tts() chunk format', () => {
  it('without format: every chunk states the frozen DEFAULT_TTS_FORMAT, which a write cannot change', async () => {
    expect(Object.isFrozen(DEFAULT_TTS_FORMAT)).toBe(true);
    expect(DEFAULT_TTS_FORMAT).toEqual({ encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1 });
    const first = await speak();
    expect(first.bytes).toBe(BYTES_24K);
    expect(first.chunks.length).toBeGreaterThan(0);
    for (const chunk of first.chunks) expect(chunk.format).toBe(DEFAULT_TTS_FORMAT);
    const format = first.chunks[0]!.format as AudioFormat;
    expect(() => {
      format.sampleRate = 8000;
    }).toThrow(TypeError);
    expect(DEFAULT_TTS_FORMAT.sampleRate).toBe(24_000);
    const later = await speak();
    expect(later.bytes).toBe(BYTES_24K);
    expect(later.chunks.every((c) => c.format.sampleRate === 24_000)).toBe(true);
  });

  it('with format: one frozen copy, equal field for field, for the whole call; the caller object stays its own', async () => {
    const mine: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 8000 };
    const { chunks, bytes } = await speak(mine);
    expect(bytes).toBe(BYTES_8K);
    const stated = chunks[0]!.format;
    expect(stated).not.toBe(mine);
    expect(stated).toStrictEqual({ encoding: 'pcm_s16le', sampleRate: 8000 });
    expect(Object.isFrozen(stated)).toBe(true);
    for (const chunk of chunks) expect(chunk.format).toBe(stated);
    expect(Object.isFrozen(mine)).toBe(false);
    expect(mine).toEqual({ encoding: 'pcm_s16le', sampleRate: 8000 });
    const withChannels: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 8000, channels: 1 };
    const again = await speak(withChannels);
    expect(again.bytes).toBe(BYTES_8K);
    expect(again.chunks[0]!.format).toStrictEqual(withChannels);
    expect(again.chunks[0]!.format).not.toBe(withChannels);
  });

  it('with format: the caller changing its own object mid-call relabels nothing of that call', async () => {
    const mine: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 8000 };
    const { chunks, bytes } = await speak(mine, () => {
      mine.sampleRate = 24_000;
    });
    expect(bytes).toBe(BYTES_8K);
    expect(chunks.map((c) => c.format.sampleRate)).toEqual(chunks.map(() => 8000));
  });

  it("voiceTurn()'s audio events carry the frozen default too", async () => {
    const audio = syntheticAudio({ durationMs: 300, sampleRate: 16_000 });
    const turn = voiceTurn(router, {
      audio: (async function* () {
        yield audio;
      })(),
      format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
      messages: [],
      model: 'fast',
      voice: 'agent',
    });
    const formats: unknown[] = [];
    for await (const event of turn) if (event.type === 'audio') formats.push(event.chunk.format);
    expect(formats.length).toBeGreaterThan(0);
    expect(formats.every((f) => f === DEFAULT_TTS_FORMAT && Object.isFrozen(f))).toBe(true);
  });
});
