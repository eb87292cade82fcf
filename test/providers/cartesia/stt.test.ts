import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ProtocolError,
  ProviderError,
  TimeoutError,
  VoxrouteError,
} from '../../../src/errors/index.js';
import type { Clock } from '../../../src/internal/clock.js';
import { isRouterStall } from '../../../src/internal/stall.js';
import type { CartesiaMockOptions } from '../../../src/testing/cartesia/index.js';
import { syntheticAudio } from '../../../src/testing/synthetic-audio.js';
import type { AudioFormat } from '../../../src/types/audio.js';
import type { TranscriptEvent } from '../../../src/types/transcript.js';
import { BlockedClock } from '../../transport/blocked-clock.js';
import { FakeClock } from '../../transport/fake-clock.js';
import {
  API_KEY,
  collect,
  collectUntilError,
  type Loopback,
  pushable,
  startLoopback,
  until,
} from './helpers.js';

let loop: Loopback | undefined;
afterEach(async () => {
  await loop?.close();
  loop = undefined;
});

const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16000 };
/** 1 s of audio: 32000 bytes. */
const second = syntheticAudio({ durationMs: 1000, format });

async function start(options: CartesiaMockOptions = {}, clock?: Clock) {
  loop = await startLoopback({ transcript: 'Book a table.', ...options });
  const adapter = loop.adapter(clock ? { clock } : {});
  return { loop, stt: adapter.stt! };
}

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

const frameLog = (l: Loopback, i = 0) =>
  l.mock.sockets[i]!.frames.map((f) => (f.type === 'text' ? f.data : f.data.byteLength));

const words = [
  { word: 'Book', startMs: 0, endMs: 267 },
  { word: 'a', startMs: 333, endMs: 600 },
  { word: 'table.', startMs: 667, endMs: 933 },
];

/**
 * A transcription of 1 s of audio (idle deadline 2 s, on `clock`) from a server that goes silent
 * after its first chunk: reads its first partial ('Book'), then reads on in the background
 * (`pending`, to the error it must end with).
 */
async function silentAfterFirstPartial(clock: Clock) {
  const { loop, stt } = await start({ script: { stallAfterChunks: 1 } }, clock);
  const iterator = stt
    .transcribe({ audio: chunks(second), format, interim: true }, loop.attempt(undefined, { idleMs: 2000 }))
    [Symbol.asyncIterator]();
  expect((await iterator.next()).value).toMatchObject({ type: 'partial', text: 'Book' });
  return { loop, pending: collectUntilError({ [Symbol.asyncIterator]: () => iterator }) };
}

describe('Cartesia STT over /stt/websocket (loopback, undici WebSocket)', () => {
  it('partials then the final, with per-word times in ms; the query names model, encoding, rate, language', async () => {
    const { loop, stt } = await start();
    const events = await collect(
      stt.transcribe(
        {
          audio: chunks(second.subarray(0, 12000), second.subarray(12000)),
          format,
          interim: true,
          language: 'en-US',
        },
        loop.attempt(),
      ),
    );
    expect(events).toEqual([
      { type: 'partial', text: 'Book', startMs: 0, endMs: 267, words: words.slice(0, 1) },
      { type: 'partial', text: 'Book a', startMs: 0, endMs: 600, words: words.slice(0, 2) },
      { type: 'final', text: 'Book a table.', startMs: 0, endMs: 933, words },
    ] satisfies TranscriptEvent[]);
    const socket = loop.mock.sockets[0]!;
    const url = new URL(socket.url);
    expect([
      url.pathname,
      ...['model', 'encoding', 'sample_rate', 'language'].map((n) => url.searchParams.get(n)),
    ]).toEqual(['/stt/websocket', 'ink-whisper', 'pcm_s16le', '16000', 'en']);
    expect(url.searchParams.get('api_key')).toBeNull();
    expect(socket.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'cartesia-version': '2025-11-04',
    });
    expect(frameLog(loop)).toEqual([12000, 20000, 'finalize', 'close']);
    expect(await socket.ended).toBe('completed');
  });

  it('without interim only the final comes; mu-law audio is declared pcm_mulaw', async () => {
    const { loop, stt } = await start();
    const ulaw: AudioFormat = { encoding: 'mulaw', sampleRate: 8000 };
    const audio = syntheticAudio({ durationMs: 1000, format: ulaw });
    const events = await collect(
      stt.transcribe({ audio: chunks(audio), format: ulaw, interim: false }, loop.attempt()),
    );
    expect(events).toEqual([{ type: 'final', text: 'Book a table.', startMs: 0, endMs: 933, words }]);
    expect(new URL(loop.mock.sockets[0]!.url).searchParams.get('encoding')).toBe('pcm_mulaw');
  });

  it('finalize only after the audio ends; close only after the final arrived (the last words are never dropped)', async () => {
    const { loop, stt } = await start();
    const audio = pushable<Uint8Array>();
    const iterator = stt
      .transcribe({ audio, format, interim: false }, loop.attempt())
      [Symbol.asyncIterator]();
    const first = iterator.next();
    audio.push(second.subarray(0, 16000));
    audio.push(second.subarray(16000));
    await until(() => loop.mock.sockets[0]?.frames.length === 2, 'both audio frames arrived');
    expect(frameLog(loop)).toEqual([16000, 16000]);
    audio.end();
    const final = await first;
    expect(final.value).toMatchObject({ type: 'final', text: 'Book a table.' });
    // The final was yielded before `close` went out (it is sent at flush_done, after the final).
    expect(frameLog(loop)).not.toContain('close');
    expect((await iterator.next()).done).toBe(true);
    expect(frameLog(loop)).toEqual([16000, 16000, 'finalize', 'close']);
  });

  it('empty audio still finalizes and ends cleanly with no transcript', async () => {
    const { loop, stt } = await start();
    expect(await collect(stt.transcribe({ audio: chunks(), format, interim: true }, loop.attempt()))).toEqual(
      [],
    );
    expect(frameLog(loop)).toEqual(['finalize', 'close']);
  });

  it('an error message is a ProviderError retryable by its status_code, partialOutput after a transcript', async () => {
    const { loop, stt } = await start({
      script: { errorEventAfterChunks: 1, errorEvent: { code: 503, message: 'busy' } },
    });
    const { items, error } = await collectUntilError(
      stt.transcribe({ audio: chunks(second), format, interim: true }, loop.attempt()),
    );
    expect(items).toEqual([
      { type: 'partial', text: 'Book', startMs: 0, endMs: 267, words: words.slice(0, 1) },
    ]);
    expect(ProviderError.isInstance(error)).toBe(true);
    const e = error as ProviderError;
    expect({
      retryable: e.retryable,
      partialOutput: e.partialOutput,
      code: e.providerType ?? e.providerCode,
    }).toEqual({
      retryable: true,
      partialOutput: true,
      code: 'internal_error',
    });
    expect(e.message).toBe("Provider 'cartesia' sent an error mid-stream (internal_error): busy");
  });

  it('C18: close 1008 right after the upgrade is a non-retryable auth error, without the key', async () => {
    const { loop, stt } = await start({
      script: { closeAfterChunks: 0, closeCode: 1008, closeReason: 'invalid api key' },
    });
    const { items, error } = await collectUntilError(
      stt.transcribe({ audio: chunks(second), format, interim: true }, loop.attempt()),
    );
    expect(items).toEqual([]);
    const e = error as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({ status: e.status, retryable: e.retryable, auth: e.isAuthError }).toEqual({
      status: 1008,
      retryable: false,
      auth: true,
    });
    expect(`${e.message}${e.stack}`.includes(API_KEY)).toBe(false);
  });

  it('a refused upgrade (bad query, 400) is a non-retryable ProviderError', async () => {
    const { loop, stt } = await start();
    const { error } = await collectUntilError(
      stt.transcribe({ audio: chunks(second), format, interim: true, model: '' }, loop.attempt()),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({
      status: (error as ProviderError).status,
      retryable: (error as ProviderError).retryable,
    }).toEqual({
      status: 400,
      retryable: false,
    });
    expect(VoxrouteError.isInstance(error) && !(error as Error).message.includes(API_KEY)).toBe(true);
  });

  it('silence from the server after the audio ended -> TimeoutError idle with partialOutput (fake clock)', async () => {
    const clock = new FakeClock();
    const { loop, pending } = await silentAfterFirstPartial(clock);
    clock.advance(2000);
    const { error } = await pending;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect({
      phase: (error as TimeoutError).phase,
      partialOutput: (error as TimeoutError).partialOutput,
    }).toEqual({
      phase: 'idle',
      partialOutput: true,
    });
    expect(await loop.mock.sockets[0]!.ended).toBe('aborted');
  });

  it("silence while the event loop is blocked: the idle deadline that passes late is the router's stall, not charged to Cartesia", async () => {
    const clock = new BlockedClock();
    const { pending } = await silentAfterFirstPartial(clock);
    // A synchronous task holds the event loop for 3 s: the 2 s idle timer fires 1 s late.
    clock.block(3000);
    clock.advance(0);
    const { error } = await pending;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect([(error as TimeoutError).phase, isRouterStall(error)]).toEqual(['idle', true]);
  });

  it('the idle deadline does not run while the caller is still sending audio', async () => {
    const clock = new FakeClock();
    const { loop, stt } = await start({}, clock);
    const audio = pushable<Uint8Array>();
    const iterator = stt
      .transcribe({ audio, format, interim: false }, loop.attempt(undefined, { idleMs: 1000 }))
      [Symbol.asyncIterator]();
    const first = iterator.next();
    audio.push(second);
    await until(() => loop.mock.sockets[0]?.frames.length === 1, 'the audio arrived');
    clock.advance(60_000);
    audio.end();
    expect((await first).value).toMatchObject({ type: 'final', text: 'Book a table.' });
  });

  it('abort mid-stream: AbortError, the socket is closed at once, the audio source is closed', async () => {
    const { loop, stt } = await start();
    const audio = pushable<Uint8Array>();
    const controller = new AbortController();
    const iterator = stt
      .transcribe({ audio, format, interim: true }, loop.attempt(controller.signal))
      [Symbol.asyncIterator]();
    const pending = collectUntilError({ [Symbol.asyncIterator]: () => iterator });
    audio.push(second);
    await until(() => loop.mock.sockets[0]?.frames.length === 1, 'the audio arrived');
    controller.abort();
    const { error } = await pending;
    expect(AbortError.isInstance(error)).toBe(true);
    expect(await loop.mock.sockets[0]!.ended).toBe('aborted');
    expect(loop.mock.sockets[0]!.closeCode).toBe(1000);
    await until(() => audio.returned, 'the audio source is closed');
  });

  it('a close before flush_done is a ProtocolError (truncated); a failing audio source fails the call', async () => {
    const { loop, stt } = await start({ script: { closeAfterChunks: 1, closeCode: 1000 } });
    const { error } = await collectUntilError(
      stt.transcribe({ audio: chunks(second), format, interim: true }, loop.attempt()),
    );
    expect(ProtocolError.isInstance(error)).toBe(true);
    expect((error as ProtocolError).message).toBe(
      'Cartesia closed the STT WebSocket before its final transcripts (truncated)',
    );
    expect((error as ProtocolError).partialOutput).toBe(true);

    const broken = new Error('microphone unplugged');
    const failing = (async function* () {
      yield second;
      throw broken;
    })();
    const result = await collectUntilError(
      loop.adapter().stt!.transcribe({ audio: failing, format, interim: true }, loop.attempt()),
    );
    expect(result.error).toBe(broken);
  });
});
