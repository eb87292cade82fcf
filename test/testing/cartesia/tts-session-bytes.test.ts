/**
 * The Cartesia mock's TTS WebSocket, driven message by message: the exact frames it sends for a
 * token stream, pinned by digest (recorded from the mock as it was before it synthesized only
 * the new text of each `continue` message), plus the audio of each context joined against
 * `mockCartesiaAudio` of its whole text.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type CartesiaMockOptions,
  createCartesiaMock,
  mockCartesiaAudio,
  mockWordTimestamps,
} from '../../../src/testing/cartesia/index.js';
import type { MockSocket } from '../../../src/testing/mock-websocket.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import { LLM_TOKENS } from '../../helpers/streamed-tts.js';

const KEY = 'sk_car_pin_0123456789';

/** Runs one session over an in-memory socket; resolves with every frame once `contexts` sent done. */
async function session(
  options: CartesiaMockOptions,
  messages: readonly Record<string, unknown>[],
  contexts: number,
): Promise<string[]> {
  const mock = createCartesiaMock({ apiKey: KEY, ...options });
  const upgrade = mock.upgrade(new Request(`http://127.0.0.1/tts/websocket?api_key=${KEY}`));
  if (!('accept' in upgrade)) throw new Error(`upgrade refused: ${upgrade.reject.status}`);
  const sent: string[] = [];
  let onMessage: (data: string | Uint8Array) => void = () => {};
  let done!: () => void;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const socket: MockSocket = {
    send(data) {
      if (typeof data !== 'string') throw new Error('the TTS socket sends text frames only');
      sent.push(data);
      if ((JSON.parse(data) as { type?: string }).type === 'done' && --contexts === 0) done();
    },
    close: () => {},
    terminate: () => {},
    onMessage(listener) {
      onMessage = listener;
    },
    onClose: () => {},
  };
  upgrade.accept(socket);
  for (const message of messages) onMessage(JSON.stringify(message));
  await finished;
  return sent;
}

const request = (
  contextId: string,
  transcript: string,
  encoding: string,
  sampleRate: number,
  extra: Record<string, unknown> = {},
) => ({
  context_id: contextId,
  model_id: 'sonic-3',
  transcript,
  voice: { mode: 'id', id: 'v' },
  output_format: { container: 'raw', encoding, sample_rate: sampleRate },
  ...extra,
});

/** An LLM's tokens, a flush at each sentence end, the input ended by an empty `continue: false`. */
function tokenStream(
  contextId: string,
  tokens: readonly string[],
  encoding: string,
  sampleRate: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const token of tokens) {
    out.push(request(contextId, token, encoding, sampleRate, { continue: true, ...extra }));
    if (token.endsWith('.'))
      out.push(request(contextId, '', encoding, sampleRate, { continue: true, flush: true, ...extra }));
  }
  out.push(request(contextId, '', encoding, sampleRate, { continue: false, ...extra }));
  return out;
}

const TOKENS = LLM_TOKENS;
/** 1..n for the n tokens ending a sentence (each followed by a flush in {@link tokenStream}). */
const sentenceEnds = (tokens: readonly string[]) =>
  tokens.filter((t) => t.endsWith('.')).map((_, i) => i + 1);
const TEXT = TOKENS.join('');

/**
 * The digest of the frames, the `flush_id` of chunk and timestamps messages taken out (the pins
 * were recorded before those carried it; {@link checkFlushIds} checks it).
 */
const sha256 = (frames: readonly string[]) =>
  createHash('sha256')
    .update(
      frames
        .map((f) => {
          const frame = JSON.parse(f) as Record<string, unknown>;
          if (frame.type !== 'chunk' && frame.type !== 'timestamps') return f;
          const { flush_id: _, ...rest } = frame;
          return JSON.stringify(rest);
        })
        .join('\n'),
    )
    .digest('hex');

/**
 * Every chunk and timestamps message carries the `flush_id` of the flush that closes its text
 * (its context's `flush_done` count so far + 1); each `flush_done` the count of its context's
 * flushes. Returns the `flush_done` ids of `contextId`.
 */
function checkFlushIds(frames: readonly string[], contextId: string): number[] {
  let answered = 0;
  const ids: number[] = [];
  for (const frame of frames.map((f) => JSON.parse(f) as Frame & { flush_id?: number })) {
    if (frame.context_id !== contextId) continue;
    if (frame.type === 'flush_done') {
      answered++;
      expect(frame.flush_id).toBe(answered);
      ids.push(frame.flush_id!);
    } else if (frame.type === 'chunk' || frame.type === 'timestamps') {
      expect(frame.flush_id).toBe(answered + 1);
    } else expect(frame.flush_id).toBeUndefined();
  }
  return ids;
}

type Frame = {
  type: string;
  context_id?: string;
  data?: string;
  word_timestamps?: { words: string[]; start: number[]; end: number[] };
};

/** The audio of `contextId`'s chunk frames, joined. */
function audioOf(frames: readonly string[], contextId: string): Buffer {
  return Buffer.concat(
    frames
      .map((f) => JSON.parse(f) as Frame)
      .filter((f) => f.type === 'chunk' && f.context_id === contextId)
      .map((f) => Buffer.from(f.data!, 'base64')),
  );
}

describe('Cartesia mock TTS WebSocket: exact frames for a token stream', () => {
  it('PCM s16le 24 kHz with timestamps, 1000-byte chunks: every frame pinned, audio = the whole text', async () => {
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 24000 };
    const frames = await session(
      { script: { 'tts-websocket': { chunkBytes: 1000 } } },
      tokenStream('c1', TOKENS, 'pcm_s16le', 24000, { add_timestamps: true }),
      1,
    );
    expect(frames.length).toBe(166);
    expect(sha256(frames)).toBe('25c0ecc0a474e61f94bd30799ec2ead3ae1c145d1111d173da16e2f2c513e6d5');
    expect(audioOf(frames, 'c1').equals(Buffer.from(mockCartesiaAudio(TEXT, format)))).toBe(true);
    expect(checkFlushIds(frames, 'c1')).toEqual(sentenceEnds(TOKENS));
    const stamps = frames
      .map((f) => JSON.parse(f) as Frame)
      .filter((f) => f.type === 'timestamps')
      .map((f) => f.word_timestamps!);
    const all = mockWordTimestamps(TEXT, 0, TEXT.length);
    expect(stamps.flatMap((s) => s.words)).toEqual(all.words);
    expect(stamps.flatMap((s) => s.start)).toEqual(all.start);
    expect(stamps.flatMap((s) => s.end)).toEqual(all.end);
  });

  it('mu-law 8 kHz, f32 44.1 kHz at 37 ms a character (rounded sample counts), late audio between contexts: pinned', async () => {
    const speech = { msPerCharacter: 37, seed: 5 };
    const frames = await session(
      { speech, script: { 'tts-websocket': { chunkBytes: 777, lateChunks: 2 } } },
      [
        ...tokenStream('a', TOKENS, 'pcm_mulaw', 8000),
        ...tokenStream('b', ['Y', 'e', 's', '.', ' ', 'N', 'o', '.'], 'pcm_f32le', 44100),
      ],
      2,
    );
    expect(frames.length).toBe(106);
    expect(sha256(frames)).toBe('d57c6a87203fdeb03bf2f2d97a0dce32ff5555b64619807dec96a4f3511c7141');
    const mulaw = mockCartesiaAudio(TEXT, { encoding: 'mulaw', sampleRate: 8000 }, speech);
    const late = mockCartesiaAudio('late audio', { encoding: 'mulaw', sampleRate: 8000 }, speech);
    expect(audioOf(frames, 'a').equals(Buffer.concat([mulaw, late]))).toBe(true);
    const f32 = mockCartesiaAudio('Yes. No.', { encoding: 'pcm_f32le', sampleRate: 44100 }, speech);
    expect(audioOf(frames, 'b').equals(Buffer.from(f32))).toBe(true);
    expect(checkFlushIds(frames, 'b')).toEqual([1, 2]);
  });
});
