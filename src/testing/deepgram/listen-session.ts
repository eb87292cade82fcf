import { createHash } from 'node:crypto';
import { durationMs } from '../../audio/format.js';
import type { AudioFormat } from '../../types/audio.js';
import type { Delay } from '../delay.js';
import type { MockSocket } from '../mock-websocket.js';
import type { RecordedRequest, RequestOutcome } from '../recorded-request.js';
import {
  type ListenMessageContext,
  metadataMessage,
  resultsMessage,
  speechStartedMessage,
  utteranceEndMessage,
} from './listen-messages.js';
import {
  DEEPGRAM_SCRIPTED_CLOSE_REASON,
  type DeepgramListenScript,
  deepgramInactivityReason,
} from './listen-script.js';
import type { DeepgramMockWord } from './transcript.js';

/**
 * One frame a client sent on `/v1/listen`: a binary frame (its size in bytes) or a text frame.
 *
 * @example
 * ```ts
 * const keepAlives = session.frames.filter((f) => f.type === 'text' && f.data.includes('KeepAlive'));
 * ```
 */
export type DeepgramListenFrame =
  | {
      /** A binary frame: audio. */
      type: 'binary';
      /** Size of the frame, in bytes. */
      bytes: number;
    }
  | {
      /** A text frame: a control message such as KeepAlive, Finalize or CloseStream. */
      type: 'text';
      /** The frame's text. */
      data: string;
    };

/**
 * How a listen session closed: code, reason, and which side closed first (`'client'` also
 * for a client that went away without a close frame).
 *
 * @example
 * ```ts
 * expect(await session.closed).toEqual({ code: 1000, reason: '', by: 'server' });
 * ```
 */
export interface DeepgramListenClose {
  /** The close code, e.g. 1000 (normal), 1011 (server error); 1006 when no close frame came. */
  code: number;
  /** The close reason (`''` when none). */
  reason: string;
  /** Which side closed first (`'client'` also for a client that went away without a close frame). */
  by: 'server' | 'client';
}

/**
 * The record of one `/v1/listen` session of the Deepgram mock: what the client sent and what
 * the mock answered, filled in as the session goes on.
 *
 * @example
 * ```ts
 * const session = await mock.session(0);
 * await session.waitFor((s) => s.controls.includes('CloseStream'));
 * expect(session.query.encoding).toBe('linear16');
 * ```
 */
export interface DeepgramListenSession {
  /** The upgrade request's record (also in the mock's `requests`); `chunksSent` counts server messages. */
  readonly record: RecordedRequest;
  /** The query of the upgrade URL, one value per name (the last one). */
  readonly query: Record<string, string>;
  /** The audio format the query declared. */
  readonly format: AudioFormat;
  /** Every client frame, in arrival order. */
  readonly frames: DeepgramListenFrame[];
  /** The `type` of every JSON text message, in order (e.g. `'KeepAlive'`, `'Finalize'`, `'CloseStream'`). */
  readonly controls: string[];
  /** Bytes of audio received (binary frames before CloseStream). */
  readonly audioBytes: number;
  /** The audio received, concatenated. */
  audio(): Uint8Array;
  /** Every server message sent, parsed, in order (a malformed frame appears as its raw text). */
  readonly sent: unknown[];
  /** How the session closed; undefined while it is open. */
  readonly close: DeepgramListenClose | undefined;
  /** Resolves once the session has closed. */
  readonly closed: Promise<DeepgramListenClose>;
  /**
   * Resolves as soon as `predicate(session)` is true (checked now and after every frame, message
   * and close). Rejects if the session closes while it is still false.
   */
  waitFor(predicate: (session: DeepgramListenSession) => boolean): Promise<void>;
}

/** Everything one session needs. */
export interface ListenSessionInput {
  socket: MockSocket;
  record: RecordedRequest;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
  query: Record<string, string>;
  format: AudioFormat;
  words: readonly DeepgramMockWord[];
  interim: boolean;
  context: ListenMessageContext;
  script: DeepgramListenScript;
  delay: Delay;
  /** Inactivity window in ms; 0: none. */
  inactivityMs: number;
}

const CLOSE = Symbol('close');
type Outgoing = Record<string, unknown> | typeof CLOSE;

/**
 * Runs one `/v1/listen` session on `socket` (PROTOCOLS.md 3.2) and returns its live record:
 * - binary frames are audio; the words of the transcript whose end the received audio has
 *   reached are "heard": each frame that makes new words heard sends, when `interim`, an interim
 *   `Results` (`is_final: false`) of the open segment; a heard word that ends a sentence is the
 *   mock's endpoint: it sends a final (`is_final: true`, `speech_final: true`: the last final of
 *   the utterance; `speech_final: false` when the query turns endpointing off with
 *   `endpointing=false`) and opens a new segment there, then, when the query has `utterance_end_ms`
 *   and `interim_results=true`, an `UtteranceEnd` with that word's end as `last_word_end`
 *   (Deepgram sends both when both detect the same pause; a client takes the first as the end
 *   of speech). UtteranceEnd works from interim results, and Deepgram's docs require
 *   `interim_results=true` with `utterance_end_ms` (DGDOC-utterance-end): without it the mock
 *   sends none (whether Deepgram instead refuses the connection is not documented);
 * - with `vad_events=true` in the query, a `SpeechStarted` (timestamp: the word's start) once
 *   the received audio passes the start of a word that opens an utterance (the first word, or
 *   one after a sentence end), before any Results holding it;
 * - `{"type":"Finalize"}` sends a final of the open segment with `from_finalize: true` (an
 *   empty transcript when no word is pending), covering the audio up to now;
 * - `{"type":"CloseStream"}` sends the final of any pending words, then `Metadata`, then closes
 *   with 1000; frames after it are ignored;
 * - `{"type":"KeepAlive"}` gets no answer; like any frame it restarts the inactivity window,
 *   at the end of which the mock closes with 1011 and a `NET-0001` reason;
 * - the script's faults and waits apply to the server messages (see DeepgramListenScript).
 */
export function runListenSession(input: ListenSessionInput): DeepgramListenSession {
  const { socket, record, finish, format, words, interim, context, script, delay } = input;
  const stop = new AbortController();
  const frames: DeepgramListenFrame[] = [];
  const controls: string[] = [];
  const sent: unknown[] = [];
  const audioChunks: Uint8Array[] = [];
  const waiters: Array<{
    predicate: (s: DeepgramListenSession) => boolean;
    resolve(): void;
    reject(e: Error): void;
  }> = [];
  let audioBytes = 0;
  let closeInfo: DeepgramListenClose | undefined;
  let settleClosed!: (close: DeepgramListenClose) => void;
  const closed = new Promise<DeepgramListenClose>((resolve) => {
    settleClosed = resolve;
  });
  let closing = false; // the server decided to close (or go silent): no more messages
  let closeStreamReceived = false;
  let metadataSent = false;
  let heard = 0; // words heard so far
  let started = 0; // words whose utterance's SpeechStarted was sent (vad_events): those before `started`
  let segmentStartMs = 0;
  let open: DeepgramMockWord[] = [];
  let sentCount = 0;
  let malformedSent = false;
  let queue: Promise<void> = Promise.resolve();
  let inactivity: AbortController | undefined;

  const receivedMs = () => durationMs(format, audioBytes);

  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.predicate(session)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const onClosed = (code: number, reason: string, by: 'server' | 'client') => {
    if (closeInfo) return;
    closeInfo = { code, reason, by };
    closing = true;
    stop.abort();
    inactivity?.abort();
    if (record.outcome === 'pending') {
      // A client that closes once Metadata went out ended the session normally.
      const outcome =
        by === 'client' ? (metadataSent ? 'completed' : 'aborted') : code === 1006 ? 'reset' : 'completed';
      finish(outcome);
    }
    settleClosed(closeInfo);
    check();
    for (const waiter of waiters.splice(0)) {
      waiter.reject(new Error(`The listen session closed (${code}) before the awaited condition held`));
    }
  };

  const serverClose = (code: number, reason: string) => {
    if (closeInfo) return;
    closing = true;
    onClosed(code, reason, 'server');
    socket.close(code, reason);
  };

  const restartInactivity = () => {
    inactivity?.abort();
    inactivity = undefined;
    if (input.inactivityMs <= 0 || closing || closeStreamReceived) return;
    const window = new AbortController();
    inactivity = window;
    void delay(input.inactivityMs, window.signal).then(() => {
      if (window.signal.aborted || closing) return;
      serverClose(1011, deepgramInactivityReason(input.inactivityMs));
    });
  };

  const sendNow = (message: Outgoing): void => {
    if (message === CLOSE) {
      serverClose(1000, '');
      return;
    }
    socket.send(JSON.stringify(message));
    if (message.type === 'Metadata') metadataSent = true;
    sent.push(message);
    sentCount++;
    record.chunksSent++;
  };

  /** Queues a message (or the final close), applying the script's faults and waits in order. */
  const emit = (message: Outgoing) => {
    queue = queue.then(async () => {
      if (closing) return;
      if (sentCount === script.resetAfterChunks) {
        closing = true;
        onClosed(1006, '', 'server');
        socket.terminate();
        return;
      }
      if (sentCount === script.closeAfterChunks) {
        serverClose(script.closeCode ?? 1011, script.closeReason ?? DEEPGRAM_SCRIPTED_CLOSE_REASON);
        return;
      }
      if (sentCount === script.stallAfterChunks) {
        closing = true;
        return;
      }
      const wait = sentCount === 0 ? script.firstChunkDelayMs : script.chunkGapMs;
      if (wait !== undefined && wait > 0) await delay(wait, stop.signal);
      if (closing) return;
      if (!malformedSent && sentCount === script.malformedAfterChunks && message !== CLOSE) {
        malformedSent = true;
        const bad = '{"type":"Results","channel":';
        socket.send(bad);
        sent.push(bad);
        record.chunksSent++;
      }
      sendNow(message);
      check();
    });
  };

  const finalOf = (
    segmentWords: DeepgramMockWord[],
    endMs: number,
    speechFinal: boolean,
    fromFinalize: boolean,
  ) => {
    emit(
      resultsMessage(
        context,
        segmentWords,
        { startMs: segmentStartMs, endMs },
        { isFinal: true, speechFinal, fromFinalize },
      ),
    );
    segmentStartMs = endMs;
  };

  const vadEvents = input.query.vad_events === 'true';
  // `endpointing=false` turns Deepgram's endpointing off: no final is `speech_final` then.
  const endpointing = input.query.endpointing !== 'false';
  /** With `vad_events`, SpeechStarted for word `i` when it opens an utterance the audio has reached. */
  const speechStart = (i: number, now: number) => {
    if (!vadEvents || i < started || i >= words.length) return;
    const word = words[i]!;
    if (word.startMs >= now || (i > 0 && !words[i - 1]!.sentenceEnd)) return;
    started = i + 1;
    emit(speechStartedMessage(word.startMs));
  };

  const onAudio = (bytes: Uint8Array) => {
    audioChunks.push(bytes.slice());
    audioBytes += bytes.byteLength;
    const now = receivedMs();
    let added = false;
    while (heard < words.length && words[heard]!.endMs <= now) {
      speechStart(heard, now);
      const word = words[heard++]!;
      open.push(word);
      added = true;
      if (word.sentenceEnd) {
        finalOf(open, word.endMs, endpointing, false);
        open = [];
        // UtteranceEnd works from interim results: Deepgram needs interim_results=true with it.
        if (interim && input.query.utterance_end_ms !== undefined) emit(utteranceEndMessage(word.endMs));
      }
    }
    speechStart(heard, now);
    if (added && interim && open.length > 0) {
      emit(
        resultsMessage(
          context,
          open,
          { startMs: segmentStartMs, endMs: now },
          { isFinal: false, speechFinal: false, fromFinalize: false },
        ),
      );
    }
  };

  const onControl = (type: string) => {
    if (type === 'Finalize') {
      finalOf(open, Math.max(segmentStartMs, receivedMs()), false, true);
      open = [];
    } else if (type === 'CloseStream') {
      closeStreamReceived = true;
      inactivity?.abort();
      if (open.length > 0) finalOf(open, Math.max(segmentStartMs, receivedMs()), false, false);
      open = [];
      if (!script.endWithoutDone) {
        const audio = concatAll(audioChunks, audioBytes);
        emit(
          metadataMessage(context, {
            durationMs: receivedMs(),
            sha256: createHash('sha256').update(audio).digest('hex'),
            channels: format.channels ?? 1,
          }),
        );
      }
      emit(CLOSE);
    }
  };

  const session: DeepgramListenSession = {
    record,
    query: input.query,
    format,
    frames,
    controls,
    get audioBytes() {
      return audioBytes;
    },
    audio: () => concatAll(audioChunks, audioBytes),
    sent,
    get close() {
      return closeInfo;
    },
    closed,
    waitFor(predicate) {
      if (predicate(session)) return Promise.resolve();
      if (closeInfo) return Promise.reject(new Error('The listen session is closed'));
      return new Promise<void>((resolve, reject) => waiters.push({ predicate, resolve, reject }));
    },
  };

  socket.onClose((code, reason) => onClosed(code, reason, 'client'));
  socket.onMessage((data) => {
    if (closeInfo) return;
    if (typeof data === 'string') {
      frames.push({ type: 'text', data });
      let type: string | undefined;
      try {
        const json: unknown = JSON.parse(data);
        if (
          typeof json === 'object' &&
          json !== null &&
          typeof (json as { type?: unknown }).type === 'string'
        ) {
          type = (json as { type: string }).type;
        }
      } catch {
        type = undefined;
      }
      if (type !== undefined) controls.push(type);
      restartInactivity();
      if (type !== undefined && !closeStreamReceived) onControl(type);
    } else {
      frames.push({ type: 'binary', bytes: data.byteLength });
      restartInactivity();
      if (!closeStreamReceived) onAudio(data);
    }
    check();
  });
  restartInactivity();
  return session;
}

function concatAll(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
