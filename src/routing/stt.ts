import { bytesPerFrame, durationMs, sameFormat } from '../audio/format.js';
import { isDigitalSilence, SampleFramer } from '../audio/index.js';
import { streamAudioConverter } from '../audio/stream-audio-converter.js';
import { ProviderError } from '../errors/provider-error.js';
import type { AbortSource } from '../internal/abort-link.js';
import type { AudioFormat } from '../types/audio.js';
import type { SttRequest } from '../types/requests.js';
import type { TranscriptEvent } from '../types/transcript.js';
import type { CallContext, CapabilityCall } from './capability.js';
import { ReplayableAudio } from './replayable-audio.js';

/**
 * One stt() call. The caller's audio is read once and kept from the end of the last final
 * transcript delivered, so that another provider can hear it again: from the start when the
 * first one failed before any transcript, or from that final when it failed mid-utterance
 * (midStream 'replay'; not after a final without `endMs`, whose end is unknown: the stream then
 * ends with MidStreamError); that provider's times are then moved onto the caller's timeline. Each
 * provider gets the audio in a format it accepts. A provider that answers only once all audio
 * is in (non-streaming) has its first-chunk clock started when the caller's audio ends.
 */
export function sttCall(request: SttRequest, context: CallContext): CapabilityCall<TranscriptEvent, 'stt'> {
  const clock = context.clock;
  const audio = new ReplayableAudio(
    request.audio,
    request.format,
    context.redact,
    clock ? () => clock.now() : undefined,
  );
  /** Byte offset in the caller's audio where the next provider starts after a mid-stream failure. */
  let replayFrom = 0;
  /**
   * False while the last final delivered had no `endMs`: where it ended is unknown, so no audio
   * is replayed (from `replayFrom` it would be heard, and transcribed, twice; from a guess, audio
   * after the final could be lost). A later final with `endMs` makes it known again.
   */
  let replayKnown = true;
  let ended: Promise<void> | undefined;
  const inputEnded = () => {
    ended ??= (async () => {
      for await (const _ of audio.reader(context.closeSignal)) {
        // drain: resolves once the caller's audio has ended
      }
    })();
    // Awaited by each attempt that needs it; a failure of the caller's audio is reported there.
    ended.catch(() => {});
    return ended;
  };
  const frame = bytesPerFrame(request.format);
  let warned = false;
  /** Warns once per call that the caller's audio ended with a stray partial sample. */
  const dropped = (droppedBytes: number) => {
    if (warned || droppedBytes <= 0) return;
    warned = true;
    context.logger?.warn("Dropped a stray partial sample at the end of the caller's audio", {
      droppedBytes,
      encoding: request.format.encoding,
      sampleRate: request.format.sampleRate,
    });
  };
  /** True once a final with text was delivered: the provider transcribed something. */
  let transcribed = false;
  /**
   * True while a partial with text was delivered after the last final: the provider was hearing
   * an utterance it never finished, whatever the audio's bytes (it may be hearing words in what
   * looks like silence), so its failure would lose that utterance.
   */
  let partialPending = false;
  /**
   * What a transcript may still come for: a partial since the last final, or audio read beyond
   * the last final other than digital silence.
   */
  const untranscribed = () =>
    partialPending ||
    (audio.totalBytes > replayFrom &&
      !audio.everyFrom(replayFrom, (bytes) => isDigitalSilence(request.format, bytes)));
  return {
    capability: 'stt',
    // Audio with no whole sample (nothing, or one stray byte of PCM s16le) has nothing to hear:
    // no provider is contacted and the result names none (as for TTS text with nothing to speak).
    isEmpty: (signal) => {
      if (audio.totalBytes >= frame) return false;
      // Waits for the first whole sample. The attempt loop races this wait with the call's
      // abort (caller's signal, router.close(), deadline, return()); `signal` is the call's own,
      // so no listener is left on the router's long-lived close signal.
      return (async () => {
        while (audio.totalBytes < frame) {
          if (!(await audio.readBeyond(audio.totalBytes, signal))) {
            if (signal.aborted) throw signal.reason;
            dropped(audio.totalBytes);
            return true;
          }
        }
        return false;
      })();
    },
    candidate(_name, stt, section) {
      const model = section.model;
      const input =
        stt.capabilities.inputFormats.find((f) => sameFormat(f, request.format)) ??
        stt.capabilities.inputFormats[0];
      if (!input) return 'its stt adapter accepts no input format';
      const language = request.language ?? section.language;
      return {
        model,
        start: (attempt) => {
          // A provider taking over mid-utterance hears the audio since the last final;
          // its times are moved onto the caller's timeline.
          const open = () => {
            const from = replayFrom;
            const offsetMs = durationMs(request.format, from);
            const events = stt.transcribe(
              {
                audio: convertAudio(audio.reader(attempt.signal, from), request.format, input, dropped),
                format: input,
                ...(model !== undefined ? { model } : {}),
                ...(language !== undefined ? { language } : {}),
                interim: request.interim ?? false,
              },
              attempt,
            );
            return offsetMs === 0 ? events : shiftTranscript(events, offsetMs);
          };
          return reconnectOnIdleClose(open, {
            pending: untranscribed,
            readBeyond: (offset) => audio.readBeyond(offset, attempt.signal),
            totalBytes: () => audio.totalBytes,
            known: () => replayKnown,
            signal: attempt.signal,
          });
        },
        ...(stt.capabilities.streamingInput ? { answersOnPause: true } : { inputEnded }),
      };
    },
    latencyOf: (event, startedAtMs, nowMs) => {
      // The transcription lag: from when the audio up to the event's end had been read (or the
      // attempt's start, for audio a provider taking over was given at once) to the event.
      const endMs = event.endMs;
      if (endMs === undefined || !Number.isFinite(endMs)) return undefined;
      const readAt = audio.readAt(Math.round((endMs / 1000) * request.format.sampleRate) * frame);
      return readAt === undefined ? undefined : Math.max(0, nowMs - Math.max(startedAtMs, readAt));
    },
    waitedOf: (startedAtMs, endedAtMs) => {
      // The audio read last had reached the router then: a failure mid-utterance loses nothing
      // but the handover (the next provider is given the kept audio at once); one after the
      // audio waited this long past it.
      const readAt = audio.lastReadAt;
      return readAt === undefined ? undefined : Math.max(0, endedAtMs - Math.max(startedAtMs, readAt));
    },
    textOf: finalText,
    // Finals are separate segments: MidStreamError.partialText has them one space apart.
    joinText: joinFinals,
    callerError: () => audio.failure,
    // However the call ends, the caller's audio iterator is returned (its finally runs) and never pulled again.
    release: () => void audio.close().catch(() => {}),
    // A mid-stream failure continues on the next provider only from a known end of the last final.
    canResume: () => replayKnown,
    // The caller's audio ended and all of it was transcribed: a failure now loses nothing. Not
    // before a final with text: a provider that fails having delivered only partials or markers
    // has transcribed nothing, silent audio or not (the next provider hears it all; decisions.md
    // "STT: a failure before any final is a failure, silent audio too").
    complete: () => transcribed && replayKnown && audio.ended && !untranscribed(),
    onDelivered: (e) => {
      if (e.type === 'partial' && e.text !== '') partialPending = true;
      // An end-of-speech marker (empty text, no times) says nothing about where words ended.
      if (e.type !== 'final' || e.text === '') return;
      transcribed = true;
      partialPending = false;
      if (e.endMs === undefined || !Number.isFinite(e.endMs)) {
        replayKnown = false;
        return;
      }
      replayKnown = true;
      // Audio up to the end of a delivered final is never needed again.
      const frame = bytesPerFrame(request.format);
      replayFrom = Math.max(
        0,
        Math.min(audio.totalBytes, Math.floor((e.endMs / 1000) * request.format.sampleRate) * frame),
      );
      audio.trimBefore(replayFrom);
    },
  };
}

/** Reconnects in a row, without a transcript event in between, before an idle close is thrown. */
export const MAX_IDLE_RECONNECTS = 3;

/**
 * The events of `open()`'s session; when the provider closes it for inactivity (a ProviderError
 * with `idleTimeout`, e.g. Deepgram's 1011 NET-0001 during a long pause), a new session of
 * the same provider instead of a failure: opened once the caller's next audio arrives, or at
 * once when the audio has ended with audio since the last final still untranscribed. `open()`
 * replays the audio since the last final delivered, so nothing is lost; when the audio ended
 * with nothing pending, the stream just ends. A lost connection (`connectionLost`: close 1006
 * or 1001, e.g. a NAT or load balancer dropping an idle socket) is the same fault when nothing
 * was pending then; with audio pending it is thrown, a mid-stream failure for the route's
 * `midStream` rule. After {@link MAX_IDLE_RECONNECTS} in a row with no event between them, or
 * once the attempt is aborted, or while the end of the last final is unknown (`known`), the close
 * is thrown as it is.
 */
async function* reconnectOnIdleClose(
  open: () => AsyncIterable<TranscriptEvent>,
  audio: {
    pending(): boolean;
    readBeyond(offset: number): Promise<boolean>;
    totalBytes(): number;
    /** False while the end of the last final is unknown: a close is then thrown as it is. */
    known(): boolean;
    signal: AbortSource;
  },
): AsyncGenerator<TranscriptEvent, void, undefined> {
  let reconnects = 0;
  for (;;) {
    try {
      for await (const e of open()) {
        reconnects = 0;
        yield e;
      }
      return;
    } catch (error) {
      if (
        !audio.known() ||
        !isIdleClose(error, audio.pending) ||
        audio.signal.aborted ||
        reconnects >= MAX_IDLE_RECONNECTS
      )
        throw error;
      // Wait for the caller's next audio; at its end, only audio still waiting for a final needs a session.
      const more = await audio.readBeyond(audio.totalBytes());
      if (audio.signal.aborted) throw error;
      if (!more && !audio.pending()) return;
      reconnects++;
    }
  }
}

/**
 * An inactivity close of the provider's session (ProviderError.idleTimeout), or its connection
 * lost (ProviderError.connectionLost) while no audio was waiting for a transcript (`pending`).
 */
function isIdleClose(error: unknown, pending: () => boolean): boolean {
  if (!ProviderError.isInstance(error) || !error.retryable) return false;
  return error.idleTimeout || (error.connectionLost && !pending());
}

/**
 * The finals so far and the `next` final as one text: one space apart, none added when white
 * space is already at the seam (a provider's final may carry its own, as Cartesia's after the
 * first do: their texts are deltas of one transcript).
 */
export function joinFinals(sofar: string, next: string): string {
  if (sofar === '' || next === '') return sofar + next;
  return /\s$/.test(sofar) || /^\s/.test(next) ? sofar + next : `${sofar} ${next}`;
}

/** The text a transcript event adds to the transcript: finals only. */
function finalText(e: TranscriptEvent): string | undefined {
  return e.type === 'final' ? e.text : undefined;
}

/** Moves transcript times by `offsetMs` (events of a provider that heard the audio from an offset). */
async function* shiftTranscript(
  events: AsyncIterable<TranscriptEvent>,
  offsetMs: number,
): AsyncGenerator<TranscriptEvent, void, undefined> {
  const at = (ms: number | undefined) => (ms === undefined ? undefined : ms + offsetMs);
  for await (const e of events) {
    const shifted: TranscriptEvent = { ...e };
    if (e.startMs !== undefined) shifted.startMs = at(e.startMs)!;
    if (e.endMs !== undefined) shifted.endMs = at(e.endMs)!;
    if (e.words) {
      shifted.words = e.words.map((w) => ({
        ...w,
        ...(w.startMs !== undefined ? { startMs: w.startMs + offsetMs } : {}),
        ...(w.endMs !== undefined ? { endMs: w.endMs + offsetMs } : {}),
      }));
    }
    yield shifted;
  }
}

/**
 * Re-frames the caller's STT audio into whole samples and converts it to the provider's format;
 * a stray partial sample at the end is dropped, reported to `onDropped`.
 */
async function* convertAudio(
  source: AsyncIterable<Uint8Array>,
  from: AudioFormat,
  to: AudioFormat,
  onDropped: (droppedBytes: number) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  const framer = new SampleFramer(from);
  const converter = await streamAudioConverter(from, to);
  try {
    for await (const bytes of source) {
      const whole = framer.push(bytes);
      if (whole.byteLength === 0) continue;
      const out = converter.push(whole);
      if (out.byteLength > 0) yield out;
    }
    onDropped(framer.end().droppedBytes);
    const tail = converter.flush();
    if (tail.byteLength > 0) yield tail;
  } finally {
    converter.close();
  }
}
