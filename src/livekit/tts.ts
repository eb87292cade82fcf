import { type APIConnectOptions, AsyncIterableQueue, shortuuid, tts } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import type { AudioFormat, Router } from 'voxroute';
import { toAPIError } from './errors.js';
import { frameOf } from './frames.js';
import { checkPluginArgs, pluginSampleRate } from './plugin-args.js';

/** Options of {@link TTS}. */
export interface TTSOptions {
  /** Logical voice of the router config (mapped per provider). Required. */
  voice: string;
  /** Sample rate of the frames handed to LiveKit, in Hz (PCM s16le, mono). Default: 24 000. */
  sampleRate?: number | undefined;
  /** Route of the router config to call. Default: the router's default (`'tts'`). */
  route?: string | undefined;
  /** BCP 47 language tag passed to the providers, e.g. `'en'`. */
  language?: string | undefined;
  /** Speaking rate multiplier; 1 is normal. */
  speed?: number | undefined;
}

/**
 * voxroute's TTS route as a LiveKit agents TTS (streaming): `stream()` takes the LLM's text
 * through `updateInputStream` (or `pushText`/`flush`) and streams it to `router.tts()` as it
 * arrives, one call per segment (text up to a flush); `synthesize()` serves one whole text.
 * Frames are PCM s16le mono at `sampleRate`, whichever provider served (voxroute converts).
 *
 * A failure surfaces as a non-retryable `APIError` (see `toAPIError`): voxroute has already
 * fallen back across the route. Closing a stream (barge-in) closes the provider call at once.
 *
 * @throws TypeError when `router` is not a router, `voice` is missing or `sampleRate` is not a
 *   whole number of Hz from 8000 to 192000.
 */
export class TTS extends tts.TTS {
  /** Name of this TTS in LiveKit's logs and metrics: `'voxroute.TTS'`. */
  label = 'voxroute.TTS';
  readonly #router: Router;
  readonly #options: TTSOptions;

  /**
   * `router`: the voxroute router to call (it stays yours: close it yourself); `options.voice`:
   * the logical voice of the router config, required; `options.sampleRate`: Hz of the frames
   * produced (PCM s16le mono), default 24000.
   * @throws TypeError when `router` is not a voxroute router, `options.voice` is missing or
   *   `options.sampleRate` is not a whole number of Hz from 8000 to 192000.
   */
  constructor(router: Router, options: TTSOptions) {
    checkPluginArgs('voxroute.TTS', router, options);
    if (!options?.voice)
      throw new TypeError('voxroute.TTS: options.voice (a logical voice of the router config) is required');
    const sampleRate = pluginSampleRate('voxroute.TTS', options.sampleRate, 24_000);
    super(sampleRate, 1, { streaming: true });
    this.#router = router;
    this.#options = { ...options, sampleRate };
  }

  /** The logical voice. */
  override get model(): string {
    return this.#options.voice;
  }

  override get provider(): string {
    return 'voxroute';
  }

  override synthesize(
    text: string,
    connOptions?: APIConnectOptions,
    abortSignal?: AbortSignal,
  ): tts.ChunkedStream {
    return new ChunkedStream(
      this,
      text,
      (input, signal) => this.#call(input, signal),
      connOptions,
      abortSignal,
    );
  }

  override stream(options?: { connOptions?: APIConnectOptions }): tts.SynthesizeStream {
    return new SynthesizeStream(this, (input, signal) => this.#call(input, signal), options?.connOptions);
  }

  #call(text: string | AsyncIterable<string>, signal: AbortSignal) {
    const { voice, route, language, speed, sampleRate } = this.#options;
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: sampleRate!, channels: 1 };
    const stream = this.#router.tts({
      text,
      voice,
      format,
      signal,
      ...(route ? { route } : {}),
      ...(language ? { language } : {}),
      ...(speed === undefined ? {} : { speed }),
    });
    stream.result.catch(() => {});
    return stream;
  }
}

type Call = (
  text: string | AsyncIterable<string>,
  signal: AbortSignal,
) => AsyncIterable<{ data: Uint8Array }>;

/**
 * Puts the audio of one router call into `put` as frames, the last one marked `final`.
 * Returns quietly when `signal` aborted (the stream was closed); rethrows anything else as an APIError.
 */
async function pump(
  audio: AsyncIterable<{ data: Uint8Array }>,
  sampleRate: number,
  signal: AbortSignal,
  put: (frame: AudioFrame, final: boolean) => void,
): Promise<void> {
  let held: AudioFrame | undefined;
  try {
    for await (const chunk of audio) {
      if (held) put(held, false);
      held = frameOf(chunk.data, sampleRate);
    }
  } catch (error) {
    if (signal.aborted) return;
    throw toAPIError(error);
  }
  if (held) put(held, true);
}

class ChunkedStream extends tts.ChunkedStream {
  label = 'voxroute.ChunkedStream';
  readonly #owner: TTS;
  readonly #call: Call;
  readonly #sampleRate: number;

  constructor(
    owner: TTS,
    text: string,
    call: Call,
    connOptions?: APIConnectOptions,
    abortSignal?: AbortSignal,
  ) {
    super(text, owner, connOptions, abortSignal);
    this.#owner = owner;
    this.#call = call;
    this.#sampleRate = owner.sampleRate;
  }

  /**
   * @livekit/agents 1.9 starts a ChunkedStream's main task without handling its rejection, so
   * an error thrown here would be an unhandled rejection (fatal by default in Node). The error
   * is reported as the base class would (a non-recoverable `error` event on the TTS) and the
   * stream ends.
   */
  protected override async run(): Promise<void> {
    const requestId = shortuuid('vox_');
    try {
      await pump(
        this.#call(this.inputText, this.abortSignal),
        this.#sampleRate,
        this.abortSignal,
        (frame, final) => this.queue.put({ requestId, segmentId: requestId, frame, final }),
      );
    } catch (error) {
      const apiError = toAPIError(error);
      this.#owner.emit('error', {
        type: 'tts_error',
        timestamp: Date.now(),
        label: this.#owner.label,
        error: apiError,
        recoverable: false,
      });
    }
  }
}

class SynthesizeStream extends tts.SynthesizeStream {
  label = 'voxroute.SynthesizeStream';
  readonly #call: Call;
  readonly #sampleRate: number;

  constructor(owner: TTS, call: Call, connOptions?: APIConnectOptions) {
    super(owner, connOptions);
    this.#call = call;
    this.#sampleRate = owner.sampleRate;
  }

  /**
   * Reads the input into segments (text between flushes) while speaking them one after the
   * other: each segment's text streams into its router call as it arrives.
   */
  protected override async run(): Promise<void> {
    const segments = new AsyncIterableQueue<AsyncIterableQueue<string>>();
    const readInput = async () => {
      let current: AsyncIterableQueue<string> | undefined;
      for await (const item of this.input) {
        if (item === tts.SynthesizeStream.FLUSH_SENTINEL) {
          current?.close();
          current = undefined;
        } else if (item) {
          if (!current) {
            current = new AsyncIterableQueue<string>();
            segments.put(current);
          }
          current.put(item);
        }
      }
      current?.close();
      segments.close();
    };
    const speak = async () => {
      for await (const text of segments) {
        if (this.abortSignal.aborted) return;
        const segmentId = shortuuid('vox_');
        const started = this.#started(text);
        await pump(
          this.#call(started, this.abortSignal),
          this.#sampleRate,
          this.abortSignal,
          (frame, final) => this.queue.put({ requestId: segmentId, segmentId, frame, final }),
        );
        if (this.abortSignal.aborted) return;
        this.queue.put(tts.SynthesizeStream.END_OF_STREAM);
      }
    };
    await Promise.all([readInput(), speak()]);
  }

  /** The segment's text, marking the TTFB anchor when its first piece goes to the router. */
  async *#started(text: AsyncIterable<string>): AsyncIterable<string> {
    let first = true;
    for await (const piece of text) {
      if (first) {
        first = false;
        this.markStarted();
      }
      yield piece;
    }
  }
}
