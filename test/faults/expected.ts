/**
 * The exact outcome of every cell, written out by hand: what the caller received and how the
 * call ended, alone and with a healthy backup, as one line (see wire/run.ts for its parts).
 * Read against docs/routing.md#failures:
 * - before the first output, a failure moves to the next provider: alone, the call ends with
 *   AllProvidersFailedError listing the cause (class, code, status, retry-after, phase);
 *   with a backup, the caller gets the backup's exact output and nothing of the primary;
 * - after the first output, the route's default midStream 'error' ends the call with
 *   MidStreamError caused by the provider's error, after exactly the primary's first piece;
 *   the backup is not asked (backup hits 0);
 * - a slow consumer (holding the stream longer than idleTimeoutMs) gets the whole answer.
 * A non-streamed body (STT as one JSON document) has no output before its end, so its
 * mid-stream faults are failures before the first output.
 */
import type { Cap, Fault, TransportName } from './matrix.js';

/** What a cell ends with: a line, or a line that depends on the capability. */
export type Outcome = string | ((cap: Cap) => string);

const NOTHING: Record<Cap, string> = { tts: 'no audio', stt: 'transcript []', chat: 'text "" finish []' };

/** Alone, nothing received and every provider (the one) failed with `cause`. */
const failed =
  (cause: string): Outcome =>
  (cap) =>
    `${NOTHING[cap]}; AllProvidersFailedError ALL_PROVIDERS_FAILED [p: ${cause}]`;

/** With a backup: exactly the backup's output, the backup asked once. */
const BACKUP: Outcome = (cap) =>
  ({
    tts: 'backup audio; ends normally; backup hits 1',
    stt: 'transcript ["final backup words"]; ends normally; backup hits 1',
    chat: 'text "Backup answer." finish ["stop"]; ends normally; backup hits 1',
  })[cap];

type Row = readonly [fault: Fault, cap: Cap, alone: Outcome, withBackup: Outcome];

export const EXPECTED: Partial<Record<TransportName, readonly Row[]>> = {
  HTTP: [
    ['refused', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    [
      'reset mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    ['reset mid-stream', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['stall before first chunk', 'tts', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      'stall mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    ['stall mid-stream', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      '429 + Retry-After',
      'tts',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'stt',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    ['500', 'tts', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'stt', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['503', 'tts', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'stt', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['malformed frame', 'tts', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['slow consumer', 'tts', 'primary audio; ends normally', 'primary audio; ends normally; backup hits 0'],
    [
      'slow consumer',
      'stt',
      'transcript ["final hello world"]; ends normally',
      'transcript ["final hello world"]; ends normally; backup hits 0',
    ],
  ],
  SSE: [
    ['refused', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'chat', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'chat', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    [
      'reset mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    [
      'reset mid-stream',
      'stt',
      'transcript ["partial hello"]; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable',
      'transcript ["partial hello"]; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    [
      'reset mid-stream',
      'chat',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- ProtocolError PROTOCOL_ERROR retryable',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    ['stall before first chunk', 'tts', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'chat', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      'stall mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'stt',
      'transcript ["partial hello"]; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'transcript ["partial hello"]; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'chat',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- TimeoutError TIMEOUT phase idle retryable',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      '429 + Retry-After',
      'tts',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'stt',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'chat',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    ['500', 'tts', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'stt', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'chat', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['503', 'tts', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'stt', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'chat', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['malformed frame', 'tts', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'chat', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['slow consumer', 'tts', 'primary audio; ends normally', 'primary audio; ends normally; backup hits 0'],
    [
      'slow consumer',
      'stt',
      'transcript ["partial hello","partial hello world","final hello world"]; ends normally',
      'transcript ["partial hello","partial hello world","final hello world"]; ends normally; backup hits 0',
    ],
    [
      'slow consumer',
      'chat',
      'text "Hello world" finish ["stop"]; ends normally',
      'text "Hello world" finish ["stop"]; ends normally; backup hits 0',
    ],
  ],
  WebSocket: [
    ['refused', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    [
      'reset mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- ProviderError PROVIDER_ERROR status 1006 retryable',
      'primary first piece; MidStreamError MID_STREAM <- ProviderError PROVIDER_ERROR status 1006 retryable; backup hits 0',
    ],
    // The final covers all the audio (0-500 ms of 50 ms) and the audio has ended: a connection
    // lost with nothing pending is an idle close (connectionLost), and nothing is left to hear.
    [
      'reset mid-stream',
      'stt',
      'transcript ["final hello"]; ends normally',
      'transcript ["final hello"]; ends normally; backup hits 0',
    ],
    ['stall before first chunk', 'tts', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      'stall mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'stt',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      '429 + Retry-After',
      'tts',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'stt',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    ['500', 'tts', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'stt', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['503', 'tts', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'stt', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['malformed frame', 'tts', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['WS close 1006', 'tts', failed('ProviderError PROVIDER_ERROR status 1006 retryable'), BACKUP],
    ['WS close 1006', 'stt', failed('ProviderError PROVIDER_ERROR status 1006 retryable'), BACKUP],
    ['WS close 1008', 'tts', failed('ProviderError PROVIDER_ERROR status 1008 not retryable'), BACKUP],
    ['WS close 1008', 'stt', failed('ProviderError PROVIDER_ERROR status 1008 not retryable'), BACKUP],
    ['WS close 1011', 'tts', failed('ProviderError PROVIDER_ERROR status 1011 retryable'), BACKUP],
    ['WS close 1011', 'stt', failed('ProviderError PROVIDER_ERROR status 1011 retryable'), BACKUP],
    ['slow consumer', 'tts', 'primary audio; ends normally', 'primary audio; ends normally; backup hits 0'],
    [
      'slow consumer',
      'stt',
      'transcript ["final hello","final world"]; ends normally',
      'transcript ["final hello","final world"]; ends normally; backup hits 0',
    ],
  ],
  'SageMaker response stream': [
    ['refused', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'chat', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'chat', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    [
      'reset mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    [
      'reset mid-stream',
      'stt',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- ProtocolError PROTOCOL_ERROR retryable',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    [
      'reset mid-stream',
      'chat',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- ProtocolError PROTOCOL_ERROR retryable',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    ['stall before first chunk', 'tts', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'chat', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      'stall mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'stt',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'chat',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- TimeoutError TIMEOUT phase idle retryable',
      'text "Hello" finish []; MidStreamError MID_STREAM partialText "Hello" <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      '429 + Retry-After',
      'tts',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'stt',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'chat',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    ['500', 'tts', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'stt', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'chat', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['503', 'tts', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'stt', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'chat', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['malformed frame', 'tts', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'chat', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['slow consumer', 'tts', 'primary audio; ends normally', 'primary audio; ends normally; backup hits 0'],
    [
      'slow consumer',
      'stt',
      'transcript ["final hello","final world"]; ends normally',
      'transcript ["final hello","final world"]; ends normally; backup hits 0',
    ],
    [
      'slow consumer',
      'chat',
      'text "Hello world" finish ["stop"]; ends normally',
      'text "Hello world" finish ["stop"]; ends normally; backup hits 0',
    ],
  ],
  'SageMaker bidirectional': [
    ['refused', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['refused', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'tts', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    ['reset before headers', 'stt', failed('ProviderError PROVIDER_ERROR retryable'), BACKUP],
    [
      'reset mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable',
      'primary first piece; MidStreamError MID_STREAM <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    [
      'reset mid-stream',
      'stt',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- ProtocolError PROTOCOL_ERROR retryable',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- ProtocolError PROTOCOL_ERROR retryable; backup hits 0',
    ],
    ['stall before first chunk', 'tts', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    ['stall before first chunk', 'stt', failed('TimeoutError TIMEOUT phase first-chunk retryable'), BACKUP],
    [
      'stall mid-stream',
      'tts',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable',
      'primary first piece; MidStreamError MID_STREAM <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      'stall mid-stream',
      'stt',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable',
      'transcript ["final hello"]; MidStreamError MID_STREAM partialText "hello" <- TimeoutError TIMEOUT phase idle retryable; backup hits 0',
    ],
    [
      '429 + Retry-After',
      'tts',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    [
      '429 + Retry-After',
      'stt',
      failed('ProviderError PROVIDER_ERROR status 429 retry-after 7000 ms retryable'),
      BACKUP,
    ],
    ['500', 'tts', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['500', 'stt', failed('ProviderError PROVIDER_ERROR status 500 retryable'), BACKUP],
    ['503', 'tts', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['503', 'stt', failed('ProviderError PROVIDER_ERROR status 503 retryable'), BACKUP],
    ['malformed frame', 'tts', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['malformed frame', 'stt', failed('ProtocolError PROTOCOL_ERROR retryable'), BACKUP],
    ['slow consumer', 'tts', 'primary audio; ends normally', 'primary audio; ends normally; backup hits 0'],
    [
      'slow consumer',
      'stt',
      'transcript ["final hello","final world"]; ends normally',
      'transcript ["final hello","final world"]; ends normally; backup hits 0',
    ],
  ],
};
