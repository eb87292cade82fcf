/**
 * Options of the plugin's own end-of-utterance rule (energy based), used because AgentSession
 * never ends the audio it streams to an STT, while a non-streaming STT provider (an upload
 * per utterance) transcribes only once its audio ends.
 */
export interface EndpointingOptions {
  /** A frame is speech when its RMS level is above this, in dBFS, below 0 (full scale). Default: -45. */
  thresholdDb?: number | undefined;
  /** Silence (frames at or below the threshold) that ends an utterance, in ms of audio. Default: 500. */
  silenceMs?: number | undefined;
  /** Audio kept from before the first speech frame and sent with the utterance, in ms. Default: 200. */
  prerollMs?: number | undefined;
  /** An utterance is ended when it reaches this length, in ms of audio. Default: 30 000. */
  maxUtteranceMs?: number | undefined;
}

/** Default end-of-utterance rule: -45 dBFS, 500 ms of silence, 200 ms pre-roll, 30 s at most (frozen). */
export const DEFAULT_ENDPOINTING: Readonly<Required<EndpointingOptions>> = Object.freeze({
  thresholdDb: -45,
  silenceMs: 500,
  prerollMs: 200,
  maxUtteranceMs: 30_000,
});

/** What one frame did: nothing yet, started an utterance (with its pre-roll), continued or ended it. */
export type EndpointStep =
  | { kind: 'idle' }
  | { kind: 'start'; audio: Uint8Array[]; startSample: number }
  | { kind: 'continue'; audio: Uint8Array }
  | { kind: 'end'; audio: Uint8Array; reason: 'silence' | 'max-length' };

/**
 * The end-of-utterance rule over PCM s16le mono frames, counted in audio time (samples), not
 * wall-clock time, so it is deterministic: an utterance starts at the first frame louder
 * than `thresholdDb` and ends after `silenceMs` of frames at or below it, or at `maxUtteranceMs`.
 */
export class Endpointer {
  readonly #options: Required<EndpointingOptions>;
  readonly #sampleRate: number;
  #preroll: Uint8Array[] = [];
  #prerollSamples = 0;
  #samples = 0;
  #speaking = false;
  #silentSamples = 0;
  #utteranceSamples = 0;

  /** @throws RangeError for a threshold that is not a finite level below 0 dBFS, or a negative or non-finite duration. */
  constructor(sampleRate: number, options: EndpointingOptions = {}) {
    this.#options = { ...DEFAULT_ENDPOINTING, ...definedOnly(options) };
    for (const key of ['silenceMs', 'prerollMs', 'maxUtteranceMs'] as const) {
      const v = this.#options[key];
      if (!Number.isFinite(v) || v < 0)
        throw new RangeError(`endpointing.${key} must be a finite number of ms >= 0, got ${v}`);
    }
    // 0 dBFS is full scale: no frame is louder than a threshold at or above it, so no utterance
    // would ever start and the STT would never transcribe anything.
    const threshold = this.#options.thresholdDb;
    if (!Number.isFinite(threshold) || threshold >= 0) {
      throw new RangeError(
        `endpointing.thresholdDb must be a finite dBFS level below 0 (full scale; default -45), got ${threshold}`,
      );
    }
    this.#sampleRate = sampleRate;
  }

  /** True between an utterance's start and its end. */
  get speaking(): boolean {
    return this.#speaking;
  }

  /** Samples seen so far (the audio clock). */
  get samples(): number {
    return this.#samples;
  }

  /** Feeds the next frame (PCM s16le mono, whole samples). */
  push(pcm: Uint8Array): EndpointStep {
    const n = pcm.byteLength >> 1;
    const voiced = levelDb(pcm) > this.#options.thresholdDb;
    const at = this.#samples;
    this.#samples += n;
    if (!this.#speaking) {
      if (!voiced) {
        this.#keepPreroll(pcm, n);
        return { kind: 'idle' };
      }
      const audio = [...this.#preroll, pcm];
      const startSample = at - this.#prerollSamples;
      this.#preroll = [];
      this.#prerollSamples = 0;
      this.#speaking = true;
      this.#silentSamples = 0;
      this.#utteranceSamples = n;
      return { kind: 'start', audio, startSample };
    }
    this.#utteranceSamples += n;
    this.#silentSamples = voiced ? 0 : this.#silentSamples + n;
    const ms = (samples: number) => (samples * 1000) / this.#sampleRate;
    if (ms(this.#silentSamples) >= this.#options.silenceMs) return this.#end(pcm, 'silence');
    if (ms(this.#utteranceSamples) >= this.#options.maxUtteranceMs) return this.#end(pcm, 'max-length');
    return { kind: 'continue', audio: pcm };
  }

  /** Ends the utterance under way now (a flush, or the end of the input); false when there was none. */
  flush(): boolean {
    const was = this.#speaking;
    this.#speaking = false;
    return was;
  }

  #end(pcm: Uint8Array, reason: 'silence' | 'max-length'): EndpointStep {
    this.#speaking = false;
    return { kind: 'end', audio: pcm, reason };
  }

  #keepPreroll(pcm: Uint8Array, n: number): void {
    this.#preroll.push(pcm);
    this.#prerollSamples += n;
    const keep = (this.#options.prerollMs * this.#sampleRate) / 1000;
    while (this.#preroll.length > 0 && this.#prerollSamples - (this.#preroll[0]!.byteLength >> 1) >= keep) {
      this.#prerollSamples -= this.#preroll.shift()!.byteLength >> 1;
    }
    if (keep === 0) {
      this.#preroll = [];
      this.#prerollSamples = 0;
    }
  }
}

/** RMS level of PCM s16le samples in dBFS (-Infinity for digital silence or no samples). */
export function levelDb(pcm: Uint8Array): number {
  const n = pcm.byteLength >> 1;
  if (n === 0) return Number.NEGATIVE_INFINITY;
  const view = new DataView(pcm.buffer, pcm.byteOffset, n * 2);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = view.getInt16(i * 2, true) / 32768;
    sum += s * s;
  }
  return 10 * Math.log10(sum / n);
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}
