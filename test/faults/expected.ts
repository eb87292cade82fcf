/**
 * The exact outcome of every cell, written by hand (never computed from the code under test):
 * what the caller received and how the call ended, alone and with a healthy backup, as one
 * line (see wire/run.ts for its parts). Each rule below is one helper, so a transport's rows
 * say only where it differs. Read against docs/routing.md#failures:
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

const ALL: readonly Cap[] = ['tts', 'stt', 'chat'];
const AUDIO: readonly Cap[] = ['tts', 'stt'];

/** The causes a cell's line names (class, code, status, retry-after, phase, retryable). */
const REFUSED = 'ProviderError PROVIDER_ERROR retryable';
const BROKEN = 'ProtocolError PROTOCOL_ERROR retryable';
const NO_FIRST_CHUNK = 'TimeoutError TIMEOUT phase first-chunk retryable';
const IDLE = 'TimeoutError TIMEOUT phase idle retryable';
const status = (code: number, rest = 'retryable') => `ProviderError PROVIDER_ERROR status ${code} ${rest}`;

/** The faults every transport fails on before the first output, with the cause the call names. */
const BEFORE_OUTPUT: ReadonlyArray<readonly [Fault, string]> = [
  ['refused', REFUSED],
  ['reset before headers', REFUSED],
  ['stall before first chunk', NO_FIRST_CHUNK],
  ['429 + Retry-After', status(429, 'retry-after 7000 ms retryable')],
  ['500', status(500)],
  ['503', status(503)],
  ['malformed frame', BROKEN],
];

/** A WebSocket's close codes, before the first output. */
const WS_CLOSES: ReadonlyArray<readonly [Fault, string]> = [
  ['WS close 1006', status(1006)],
  ['WS close 1008', status(1008, 'not retryable')],
  ['WS close 1011', status(1011)],
];

/** Every fault of `faults` in every capability of `caps` fails before the first output. */
function failsBefore(caps: readonly Cap[], faults = BEFORE_OUTPUT): Row[] {
  return faults.flatMap(([fault, cause]) => caps.map((cap): Row => [fault, cap, failed(cause), BACKUP]));
}

/**
 * The connection reset (`reset`) and stalled (idle deadline) after the first output of `cap`:
 * the caller got `received` (the primary's first piece), then MidStreamError with `partialText`
 * where the capability keeps text; the backup is not asked.
 */
function midStream(cap: Cap, received: string, partialText?: string, reset = BROKEN): Row[] {
  const partial = partialText === undefined ? '' : `partialText "${partialText}" `;
  return (
    [
      ['reset mid-stream', reset],
      ['stall mid-stream', IDLE],
    ] as const
  ).map(([fault, cause]): Row => {
    const line = `${received}; MidStreamError MID_STREAM ${partial}<- ${cause}`;
    return [fault, cap, line, `${line}; backup hits 0`];
  });
}

/** The slow consumer gets the whole answer, `received`; the backup is not asked. */
function slowConsumer(cap: Cap, received: string): Row {
  return ['slow consumer', cap, `${received}; ends normally`, `${received}; ends normally; backup hits 0`];
}

/** What the primary's first piece and whole answer are, as the caller receives them. */
const TTS_PIECE = 'primary first piece';
const TTS_WHOLE = 'primary audio';
const CHAT_PIECE = 'text "Hello" finish []';
const CHAT_WHOLE = 'text "Hello world" finish ["stop"]';
const STT_FINAL_PIECE = 'transcript ["final hello"]';
const STT_TWO_FINALS = 'transcript ["final hello","final world"]';

export const EXPECTED: Partial<Record<TransportName, readonly Row[]>> = {
  HTTP: [
    ...failsBefore(AUDIO),
    ...midStream('tts', TTS_PIECE),
    // STT's transcript is one JSON document: nothing is output before its end.
    ['reset mid-stream', 'stt', failed(BROKEN), BACKUP],
    ['stall mid-stream', 'stt', failed(NO_FIRST_CHUNK), BACKUP],
    slowConsumer('tts', TTS_WHOLE),
    slowConsumer('stt', 'transcript ["final hello world"]'),
  ],
  SSE: [
    ...failsBefore(ALL),
    ...midStream('tts', TTS_PIECE),
    ...midStream('stt', 'transcript ["partial hello"]'),
    ...midStream('chat', CHAT_PIECE, 'Hello'),
    slowConsumer('tts', TTS_WHOLE),
    slowConsumer('stt', 'transcript ["partial hello","partial hello world","final hello world"]'),
    slowConsumer('chat', CHAT_WHOLE),
  ],
  WebSocket: [
    ...failsBefore(AUDIO, [...BEFORE_OUTPUT, ...WS_CLOSES]),
    ...midStream('tts', TTS_PIECE, undefined, status(1006)),
    // The final covers all the audio (0-500 ms of 50 ms) and the audio has ended: a connection
    // lost with nothing pending is an idle close (connectionLost), and nothing is left to hear.
    [
      'reset mid-stream',
      'stt',
      `${STT_FINAL_PIECE}; ends normally`,
      `${STT_FINAL_PIECE}; ends normally; backup hits 0`,
    ],
    ...midStream('stt', STT_FINAL_PIECE, 'hello', status(1006)).filter(
      ([fault]) => fault !== 'reset mid-stream',
    ),
    slowConsumer('tts', TTS_WHOLE),
    slowConsumer('stt', STT_TWO_FINALS),
  ],
  'SageMaker response stream': [
    ...failsBefore(ALL),
    ...midStream('tts', TTS_PIECE),
    ...midStream('stt', STT_FINAL_PIECE, 'hello'),
    ...midStream('chat', CHAT_PIECE, 'Hello'),
    slowConsumer('tts', TTS_WHOLE),
    slowConsumer('stt', STT_TWO_FINALS),
    slowConsumer('chat', CHAT_WHOLE),
  ],
  'SageMaker bidirectional': [
    ...failsBefore(AUDIO),
    ...midStream('tts', TTS_PIECE),
    ...midStream('stt', STT_FINAL_PIECE, 'hello'),
    slowConsumer('tts', TTS_WHOLE),
    slowConsumer('stt', STT_TWO_FINALS),
  ],
};
