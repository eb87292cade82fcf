import { type APIConnectOptions, AsyncIterableQueue, mergeFrames, shortuuid, stt } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import type { AudioFormat, Router, TranscriptEvent } from 'voxroute';
import { Endpointer, type EndpointingOptions } from './endpointer.js';
import { toAPIError } from './errors.js';
import { bytesOf } from './frames.js';
import { checkPluginArgs, pluginSampleRate } from './plugin-args.js';

type AudioBuffer = AudioFrame | AudioFrame[];

/** Options of {@link STT}. */
export interface STTOptions {
  /** Route of the router config to call. Default: the router's default (`'stt'`). */
  route?: string | undefined;
  /** BCP 47 language tag passed to the providers, e.g. `'en'`. */
  language?: string | undefined;
  /** Rate the audio is resampled to before it goes to the router, in Hz. Default: 16 000. */
  sampleRate?: number | undefined;
  /** Ask for partial transcripts (from streaming providers). Default: true. */
  interim?: boolean | undefined;
  /**
   * The plugin's end-of-utterance rule: each utterance becomes one `router.stt()` call whose
   * audio ends when the rule says so. Needed for routes with non-streaming providers, since
   * AgentSession never ends the audio. `false`: one call for the whole stream (streaming
   * providers only: they find the utterances themselves). Default: on, {@link DEFAULT_ENDPOINTING}.
   */
  endpointing?: EndpointingOptions | false | undefined;
}

/**
 * voxroute's STT route as a LiveKit agents STT (streaming): `stream()` takes AgentSession's
 * audio frames (resampled to `sampleRate`, mixed down to mono) and emits START_OF_SPEECH,
 * INTERIM_TRANSCRIPT, FINAL_TRANSCRIPT, END_OF_SPEECH and RECOGNITION_USAGE events;
 * `recognize()` transcribes one buffer. Times are seconds from the start of the stream.
 *
 * A failure surfaces as a non-retryable `APIError`: voxroute has already fallen back across
 * the route (and replayed the utterance's audio where the route says `midStream: 'replay'`).
 *
 * @throws TypeError when `router` is not a router or `sampleRate` is not a whole number of Hz from
 *   8000 to 192000; RangeError for bad `endpointing`.
 */
export class STT extends stt.STT {
  /** Name of this STT in LiveKit's logs and metrics: `'voxroute.STT'`. */
  label = 'voxroute.STT';
  readonly #router: Router;
  readonly #options: STTOptions & { sampleRate: number };

  /**
   * `router`: the voxroute router to call (it stays yours: close it yourself); `options`: the
   * route, `sampleRate` (Hz, default 16000), interim results (default on) and endpointing.
   * @throws TypeError when `router` is not a voxroute router or `options.sampleRate` is not a
   *   whole number of Hz from 8000 to 192000; RangeError for invalid `options.endpointing`.
   */
  constructor(router: Router, options: STTOptions = {}) {
    checkPluginArgs('voxroute.STT', router, options);
    const sampleRate = pluginSampleRate('voxroute.STT', options.sampleRate, 16_000);
    if (options.endpointing) new Endpointer(sampleRate, options.endpointing); // validates now, not mid-call
    super({ streaming: true, interimResults: options.interim ?? true });
    this.#router = router;
    this.#options = { ...options, sampleRate };
  }

  /** The route called. */
  override get model(): string {
    return this.#options.route ?? 'stt';
  }

  override get provider(): string {
    return 'voxroute';
  }

  protected override async _recognize(
    buffer: AudioBuffer,
    abortSignal?: AbortSignal,
  ): Promise<stt.SpeechEvent> {
    const frame = mergeFrames(buffer);
    const requestId = shortuuid('vox_');
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate: frame.sampleRate, channels: 1 };
    const bytes = bytesOf(frame);
    const finals: TranscriptEvent[] = [];
    try {
      for await (const event of this.transcribe(one(bytes), format, abortSignal, false)) {
        if (event.type === 'final') finals.push(event);
      }
    } catch (error) {
      throw toAPIError(error);
    }
    const duration = frame.samplesPerChannel / frame.sampleRate;
    return {
      type: stt.SpeechEventType.FINAL_TRANSCRIPT,
      requestId,
      alternatives: [
        speechData(
          {
            type: 'final',
            text: finals
              .map((f) => f.text.trim())
              .filter(Boolean)
              .join(' '),
          },
          0,
          duration,
          this.#options.language,
        ),
      ],
    };
  }

  override stream(options?: { connOptions?: APIConnectOptions }): stt.SpeechStream {
    return new SpeechStream(this, this.#options, options?.connOptions);
  }

  /** One `router.stt()` call. @internal */
  transcribe(
    audio: AsyncIterable<Uint8Array>,
    format: AudioFormat,
    signal: AbortSignal | undefined,
    interim: boolean,
  ): AsyncIterable<TranscriptEvent> {
    const { route, language } = this.#options;
    const stream = this.#router.stt({
      audio,
      format,
      interim,
      ...(signal ? { signal } : {}),
      ...(route ? { route } : {}),
      ...(language ? { language } : {}),
    });
    stream.result.catch(() => {});
    return stream;
  }
}

async function* one(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** A voxroute transcript event as LiveKit speech data; `offset` (s) places it in the stream. */
function speechData(event: TranscriptEvent, offset: number, duration: number, language: string | undefined) {
  return {
    language: (language ?? '') as stt.SpeechData['language'],
    text: event.text,
    startTime: offset + (event.startMs ?? 0) / 1000,
    endTime: offset + (event.endMs ?? duration * 1000) / 1000,
    confidence: event.confidence ?? 0,
    ...(event.words
      ? {
          words: event.words.map((w) => ({
            text: w.word,
            startTime: offset + (w.startMs ?? 0) / 1000,
            endTime: offset + (w.endMs ?? w.startMs ?? 0) / 1000,
          })),
        }
      : {}),
  } as stt.SpeechData;
}

class SpeechStream extends stt.SpeechStream {
  label = 'voxroute.SpeechStream';
  readonly #stt: STT;
  readonly #options: STTOptions & { sampleRate: number };
  /** Aborts the router calls under way when the stream closes or fails. */
  readonly #calls = new AbortController();

  constructor(owner: STT, options: STTOptions & { sampleRate: number }, connOptions?: APIConnectOptions) {
    super(owner, options.sampleRate, connOptions);
    this.#stt = owner;
    this.#options = options;
    this.abortSignal.addEventListener('abort', () => this.#calls.abort(), { once: true });
  }

  protected override async run(): Promise<void> {
    const { sampleRate } = this.#options;
    const format: AudioFormat = { encoding: 'pcm_s16le', sampleRate, channels: 1 };
    let fail: (error: unknown) => void = () => {};
    const failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    failed.catch(() => {});
    let chain: Promise<void> = Promise.resolve();
    /** Transcribes utterances one after the other, so their events keep the audio's order. */
    const transcribe = (audio: AsyncIterable<Uint8Array>, startSample: number) => {
      chain = chain
        .then(() => this.#utterance(audio, format, startSample / sampleRate))
        .catch((error: unknown) => {
          this.#calls.abort();
          fail(error);
        });
    };
    const endpointing = this.#options.endpointing;
    const read =
      endpointing === false
        ? this.#readWhole(transcribe)
        : this.#readUtterances(new Endpointer(sampleRate, endpointing ?? {}), transcribe);
    await Promise.race([read, failed]);
    await Promise.race([chain, failed]);
  }

  /** endpointing: false: the whole input is one call. */
  async #readWhole(
    transcribe: (audio: AsyncIterable<Uint8Array>, startSample: number) => void,
  ): Promise<void> {
    const audio = new AsyncIterableQueue<Uint8Array>();
    transcribe(audio, 0);
    for await (const item of this.input) {
      if (typeof item !== 'symbol') audio.put(bytesOf(item));
    }
    audio.close();
  }

  /** Cuts the input into utterances with the end-of-utterance rule (or a flush). */
  async #readUtterances(
    endpointer: Endpointer,
    transcribe: (audio: AsyncIterable<Uint8Array>, startSample: number) => void,
  ): Promise<void> {
    let audio: AsyncIterableQueue<Uint8Array> | undefined;
    const end = () => {
      audio?.close();
      audio = undefined;
      this.queue.put({ type: stt.SpeechEventType.END_OF_SPEECH });
    };
    for await (const item of this.input) {
      if (typeof item === 'symbol') {
        if (endpointer.flush()) end();
        continue;
      }
      const step = endpointer.push(bytesOf(item));
      if (step.kind === 'start') {
        audio = new AsyncIterableQueue<Uint8Array>();
        for (const part of step.audio) audio.put(part);
        this.queue.put({ type: stt.SpeechEventType.START_OF_SPEECH });
        transcribe(audio, step.startSample);
      } else if (step.kind === 'continue') {
        audio?.put(step.audio);
      } else if (step.kind === 'end') {
        audio?.put(step.audio);
        end();
      }
    }
    if (endpointer.flush()) end();
  }

  /** One router call: its partials and finals as speech events, then the audio's duration as usage. */
  async #utterance(audio: AsyncIterable<Uint8Array>, format: AudioFormat, offset: number): Promise<void> {
    const requestId = shortuuid('vox_');
    let bytes = 0;
    const counted = (async function* () {
      for await (const part of audio) {
        bytes += part.byteLength;
        yield part;
      }
    })();
    const interim = this.#options.interim ?? true;
    const start = offset + this.startTimeOffset;
    try {
      for await (const event of this.#stt.transcribe(counted, format, this.#calls.signal, interim)) {
        if (!event.text.trim()) continue;
        const duration = bytes / 2 / format.sampleRate;
        this.queue.put({
          type:
            event.type === 'final'
              ? stt.SpeechEventType.FINAL_TRANSCRIPT
              : stt.SpeechEventType.INTERIM_TRANSCRIPT,
          requestId,
          alternatives: [speechData(event, start, duration, this.#options.language)],
        });
      }
    } catch (error) {
      if (this.abortSignal.aborted) return;
      throw toAPIError(error);
    }
    this.queue.put({
      type: stt.SpeechEventType.RECOGNITION_USAGE,
      requestId,
      recognitionUsage: { audioDuration: bytes / 2 / format.sampleRate },
    });
  }
}
