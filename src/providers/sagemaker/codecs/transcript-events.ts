import type { z } from 'zod';
import { ProtocolError } from '../../../errors/index.js';
import { lazySchema } from '../../../internal/zod.js';
import type { TranscriptEvent, TranscriptWord } from '../../../types/transcript.js';
import { transcriptionEventShape } from '../../shared/openai-wire/api-types.js';
import { TranscriptAssembler } from '../../shared/openai-wire/transcription-stream.js';
import { parseWire } from '../../shared/parse-wire.js';
import { checkedTranscriptTimes } from '../../shared/transcript-times.js';
import type { SttCodecCall } from '../codec.js';
import { jsonMessages } from '../framing.js';

/**
 * A transcript message of an STT container. Times (`start`, `end`, word times) are in seconds
 * from the start of the audio.
 * - `{"text": "..."}`: a final transcript (what Whisper containers answer);
 * - `{"type": "partial" | "final", "text", "start"?, "end"?, "words"?, "confidence"?}`;
 * - `{"text", "is_final": false | true, ...}` (Cartesia and Deepgram style flag);
 * - `{"type": "done"}` ends the stream.
 * OpenAI-style `transcript.text.delta` / `transcript.text.done` events are read separately.
 * Built on first call (zod is loaded then, see src/internal/zod.ts).
 */
const transcriptMessageSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string().nullish(),
    text: z.string().nullish(),
    is_final: z.boolean().nullish(),
    start: z.number().nonnegative().nullish(),
    end: z.number().nonnegative().nullish(),
    confidence: z.number().min(0).max(1).nullish(),
    words: z
      .array(
        z.looseObject({
          word: z.string(),
          start: z.number().nonnegative().nullish(),
          end: z.number().nonnegative().nullish(),
          confidence: z.number().min(0).max(1).nullish(),
        }),
      )
      .nullish(),
  }),
);

type TranscriptMessage = z.infer<ReturnType<typeof transcriptMessageSchema>>;

/**
 * Transcript events from the PayloadPart bytes of an STT container (SSE or JSON lines,
 * detected), for the shapes of `transcriptMessageSchema` and OpenAI's streamed transcription
 * events (read with the assembler the OpenAI adapter uses, providers/shared/openai-wire).
 * - A partial is yielded only when `call.request.interim` is set and its text is not empty.
 * - A final carries its text trimmed, `startMs`/`endMs` from its times (else 0 and the
 *   audio's length, `call.audioMs`, when known), and its words in ms. A negative, inverted or
 *   non-finite time is a malformed message (ProtocolError; see `checkedTranscriptTimes`), and
 *   so is one past the end of the audio when its length is known (`call.audioMs` > 0: the
 *   whole audio went out before the reply; a bidirectional stream's count is not kept).
 * - The stream ends at `{"type":"done"}`, `[DONE]`, or its end. Ending without any final
 *   after a partial, or with no transcript message at all, is a truncated ProtocolError.
 * `{"error": ...}` inside the stream is a ProviderError.
 */
export async function* transcriptEvents(
  parts: AsyncIterable<Uint8Array>,
  call: SttCodecCall,
): AsyncGenerator<TranscriptEvent, void, undefined> {
  const { provider } = call;
  const interim = call.request.interim;
  let openai: TranscriptAssembler | undefined;
  let finals = 0;
  let partials = 0;
  let ended = false;
  /** Whether an event was yielded (the `partialOutput` of a malformed message's error). */
  let yielded = false;
  const what = 'transcript message';
  /** All the audio sent, when the call sent it before the reply (0 while it streams: unknown). */
  const sentMs = call.audioMs > 0 ? call.audioMs : undefined;
  for await (const message of jsonMessages(parts, { provider })) {
    if (message.kind === 'done') {
      ended = true;
      break;
    }
    const value = message.value as { type?: unknown } | null;
    if (typeof value?.type === 'string' && value.type.startsWith('transcript.text.')) {
      openai ??= new TranscriptAssembler(provider, interim, call.audioMs);
      const event = parseWire(transcriptionEventShape, value, provider, 'transcription event', false);
      const step = openai.push(event);
      yield* step.events;
      if (step.done) return;
      continue;
    }
    const parsed = parseWire(transcriptMessageSchema(), value, provider, 'transcript message', false);
    if (parsed.type === 'done') {
      ended = true;
      break;
    }
    if (typeof parsed.text !== 'string') continue;
    const partial = parsed.type === 'partial' || parsed.is_final === false;
    if (partial) {
      partials++;
      const text = parsed.text.trim();
      if (interim && text !== '') {
        yield checkedTranscriptTimes(
          withDetails({ type: 'partial', text }, parsed, undefined),
          provider,
          what,
          yielded,
          sentMs,
        );
        yielded = true;
      }
      continue;
    }
    finals++;
    const final = withDetails({ type: 'final', text: parsed.text.trim() }, parsed, call.audioMs);
    yield checkedTranscriptTimes(final, provider, what, yielded, sentMs);
    yielded = true;
  }
  if (openai) {
    yield* openai.end(ended ? 'done' : 'eof');
    return;
  }
  if (finals === 0) {
    const what = partials > 0 ? 'before its final transcript' : 'without a transcript';
    throw new ProtocolError(`Transcript stream ended ${what} (truncated)`, { provider });
  }
}

function withDetails(
  event: TranscriptEvent,
  message: TranscriptMessage,
  audioMs: number | undefined,
): TranscriptEvent {
  if (message.start != null) event.startMs = Math.round(message.start * 1000);
  else if (event.type === 'final') event.startMs = 0;
  if (message.end != null) event.endMs = Math.round(message.end * 1000);
  else if (event.type === 'final' && audioMs) event.endMs = audioMs;
  if (message.confidence != null) event.confidence = message.confidence;
  if (message.words && message.words.length > 0) {
    event.words = message.words.map((w) => {
      const word: TranscriptWord = { word: w.word };
      if (w.start != null) word.startMs = Math.round(w.start * 1000);
      if (w.end != null) word.endMs = Math.round(w.end * 1000);
      if (w.confidence != null) word.confidence = w.confidence;
      return word;
    });
  }
  return event;
}
