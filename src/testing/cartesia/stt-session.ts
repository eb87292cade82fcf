import type { Delay } from '../delay.js';
import type { MockSocket } from '../mock-websocket.js';
import type { RequestOutcome } from '../recorded-request.js';
import { errorEventPayload, mockRequestId } from './errors.js';
import type { CartesiaMockScript } from './script.js';
import { ScriptedSocket } from './scripted-socket.js';
import type { CartesiaSocketRecord } from './socket-record.js';

/** Bytes a sample of each `/stt/websocket` encoding (PROTOCOLS.md 1.6). */
export const STT_BYTES_PER_SAMPLE: Readonly<Record<string, number>> = {
  pcm_s16le: 2,
  pcm_s32le: 4,
  pcm_f16le: 2,
  pcm_f32le: 4,
  pcm_mulaw: 1,
  pcm_alaw: 1,
};

/** What an STT session needs from the mock. */
export interface SttSessionContext {
  script: CartesiaMockScript;
  delay: Delay;
  record: CartesiaSocketRecord;
  finish: (outcome: Exclude<RequestOutcome, 'pending'>) => void;
  /** Wire encoding and sample rate (Hz) from the query. */
  encoding: string;
  sampleRate: number;
  /** The transcript of one finalized segment of audio (1-based `segment`). */
  transcript: (audio: Uint8Array, segment: number) => string;
}

/** Seconds with millisecond precision. */
const seconds = (ms: number): number => Math.round(ms) / 1000;

/**
 * Runs one `/stt/websocket` session of the mock (manual finalize; PROTOCOLS.md 1.6):
 * - binary frames are audio in the query's encoding and rate, buffered;
 * - `finalize`: the buffered audio becomes a segment whose transcript is `transcript(audio,
 *   n)`: one partial per word but the last, each with the words so far (`is_final: false`),
 *   then the final (`is_final: true`); from the second segment on the text of each, partials
 *   included, starts with a space, as every transcript's `text` is the delta since the last
 *   final (CJS `TranscriptMessage.text`), each with `words` `[{word, start, end}]` in
 *   seconds from the start of the session's audio (the segment's time split evenly among its
 *   words, each word lasting 80% of its share), then `{"type":"flush_done"}`. A segment without
 *   audio or with an empty transcript gives `flush_done` only;
 * - `close`, or the older SDK's `done`: the transcripts of audio not finalized yet (no
 *   `flush_done`), then `{"type":"done"}`, then a close with 1000;
 * - any other text frame: an error message (`status_code` 400).
 * Every message carries `request_id`; transcripts also `duration` (s) and `language: 'en'`.
 */
export function runSttSession(socket: MockSocket, context: SttSessionContext): void {
  const { script, record, finish } = context;
  const requestId = mockRequestId();
  const bytesPerSecond = (STT_BYTES_PER_SAMPLE[context.encoding] ?? 2) * context.sampleRate;
  const scripted = new ScriptedSocket(socket, script, context.delay, record, finish);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let totalBytes = 0;
  let segments = 0;
  let spokenFinal = false;
  let closing = false;
  let done = false;
  socket.onClose((code, reason) => {
    record.closeCode = code;
    record.closeReason = reason;
    finish(done ? 'completed' : 'aborted');
  });

  const send = (payload: () => object, first: boolean) =>
    scripted.chunk(
      () => JSON.stringify(payload()),
      first,
      () => errorEventPayload(script.errorEvent),
    );

  const finalize = (flushDone: boolean): void => {
    const audio = new Uint8Array(pendingBytes);
    let offset = 0;
    for (const piece of pending) {
      audio.set(piece, offset);
      offset += piece.byteLength;
    }
    const startMs = ((totalBytes - pendingBytes) / bytesPerSecond) * 1000;
    const spanMs = (pendingBytes / bytesPerSecond) * 1000;
    const durationS = totalBytes / bytesPerSecond;
    pending = [];
    pendingBytes = 0;
    const text = audio.byteLength > 0 ? context.transcript(audio, ++segments).trim() : '';
    const words = text === '' ? [] : text.split(/\s+/);
    const timed = words.map((word, i) => ({
      word,
      start: seconds(startMs + (i * spanMs) / words.length),
      end: seconds(startMs + ((i + 0.8) * spanMs) / words.length),
    }));
    let first = true;
    const transcript = (count: number, isFinal: boolean) => {
      // Every transcript's text, partials included, is the delta since the last final.
      const leading = spokenFinal ? ' ' : '';
      void send(
        () => ({
          type: 'transcript',
          request_id: requestId,
          text: leading + words.slice(0, count).join(' '),
          is_final: isFinal,
          duration: durationS,
          language: 'en',
          words: timed.slice(0, count),
        }),
        first,
      );
      first = false;
    };
    for (let count = 1; count < words.length; count++) transcript(count, false);
    if (words.length > 0) {
      transcript(words.length, true);
      spokenFinal = true;
    }
    if (flushDone) void send(() => ({ type: 'flush_done', request_id: requestId }), first);
  };

  if (!scripted.start()) return;
  socket.onMessage((data) => {
    if (typeof data !== 'string') {
      record.frames.push({ type: 'binary', data });
      if (closing) return;
      pending.push(data);
      pendingBytes += data.byteLength;
      totalBytes += data.byteLength;
      return;
    }
    record.frames.push({ type: 'text', data });
    if (closing) return;
    if (data === 'finalize') {
      finalize(true);
      return;
    }
    if (data === 'close' || data === 'done') {
      closing = true;
      if (pendingBytes > 0) finalize(false);
      if (script.endWithoutDone) {
        void scripted.close(1000, '');
        return;
      }
      void send(() => {
        done = true;
        return { type: 'done', request_id: requestId };
      }, false).then((outcome) => {
        if (outcome === 'sent') void scripted.close(1000, '');
      });
      return;
    }
    void scripted.message(() =>
      errorEventPayload({ code: 400, message: `Unknown command ${JSON.stringify(data.slice(0, 40))}` }),
    );
  });
}
