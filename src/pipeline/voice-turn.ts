import { performance } from 'node:perf_hooks';
import { AbortError } from '../errors/abort-error.js';
import { onceStream, type Settle, VOICE_TURN } from '../internal/once-stream.js';
import { rejectOnAbort } from '../internal/unstarted-abort.js';
import { valueShape } from '../internal/value-shape.js';
import { closeSignalOf, routerClosed } from '../routing/close-signal.js';
import { preflightOf } from '../routing/preflight.js';
import { rejectedStream } from '../routing/rejected-stream.js';
import type { Router } from '../routing/router-types.js';
import { ClauseSplitter } from '../text/clause-splitter.js';
import { speakable } from '../text/speakable.js';
import type { AudioChunk } from '../types/audio.js';
import type { ToolCall } from '../types/chat.js';
import type { RouteResult } from '../types/route-result.js';
import { expectedTtfcMs, stageDeadlines } from './budget.js';
import { EventQueue } from './event-queue.js';
import { chatFields, sttFields, ttsFields } from './stage-fields.js';
import { TurnAudio } from './turn-audio.js';
import { TurnIterator } from './turn-iterator.js';
import type { TurnEvent, TurnResult, TurnTimeline, VoiceTurn, VoiceTurnRequest } from './types.js';
import { turnConfigProblem, turnRequestProblem } from './validate-turn.js';

/**
 * Runs one voice turn: the caller's audio -> stt() finals -> chat() with the transcript
 * appended as the user's message -> the reply's tokens streamed into tts() -> audio. Each
 * stage is routed on its own route (`request.routes`, default `'stt'`, `'chat'`, `'tts'`).
 * The stages take the request's fields as their calls name them: STT `language` and `interim`;
 * chat `tools`, `maxTokens` and `temperature`; TTS `language` (not Deepgram's `multi`, which
 * names no language to speak in), `speed` and `output` (as `format`).
 * TTS starts at the reply's first token: the provider's connection opens while the LLM
 * writes, and a provider that takes streamed text gets the tokens as they come. Its clocks
 * (first-chunk deadline, hedge delay, time to first chunk) start only when the provider has
 * been given the first clause (tts() does that), so they do not run while the LLM thinks.
 *
 * With `budgetMs` (end of speech -> first audio), chat and TTS get per-call first-chunk
 * deadlines (`firstChunkTimeoutMs`, and `hedgeAfterMs` on hedged routes) of half of what the
 * budget has left after the later stages' measured time to first chunk, at least 50 ms and at
 * least twice the stage's own measured median time to first chunk (see `stageDeadlines`), so
 * a slow provider falls back in time and a typical one is not cut off. They shorten only the attempts with a fallback behind
 * them: a stage's last candidate keeps at least its route's own first-chunk deadline, so a
 * spent budget never turns a late answer into no answer. The STT stage keeps its route's
 * deadlines (its end of speech is known only when it comes).
 *
 * End of speech is the STT provider's endpoint (a final with `endOfSpeech: true`, e.g. Deepgram's
 * `speech_final` or `UtteranceEnd`) or the end of `request.audio`, whichever comes first (an
 * endpoint after the audio ended changes nothing: every final of that audio is the transcript). At the
 * endpoint the turn stops reading `request.audio` (the STT stage's audio ends there, so the
 * provider flushes and closes) without returning the caller's iterator: a microphone stays open,
 * and `remainingAudio` goes on from where the turn stopped. Chat starts at once on the finals so
 * far; finals the provider still sends after the endpoint (words heard before the audio stopped)
 * are yielded as `transcript` events but are not part of this turn's transcript.
 *
 * Nothing starts until the turn is iterated; it can be iterated once, and `result` settles
 * once the turn is read to its end (or ends early: break, abort, error). `result` awaited
 * before the turn is iterated does not start it: it rejects with AbortError when
 * `request.signal` aborts or the router is closed, and otherwise waits for the iteration.
 * Events come in the
 * order they happened: transcripts, reply deltas, audio chunks (in `request.output`, default
 * PCM s16le 24 kHz mono). An empty transcript ends the turn without calling chat or TTS.
 * The model is offered `request.tools`; its tool calls are not spoken: `result.toolCalls` has
 * them, in order.
 *
 * When chat fails after part of the reply was streamed (MidStreamError), the reply text
 * yielded so far is spoken up to its last complete sentence before the iterator throws the
 * error: the caller hears every complete sentence it was shown, and no unfinished one. Any
 * stage failure is thrown after the events that came before it (however far behind the caller's
 * loop is); only a barge-in drops events that were waiting.
 *
 * Barge-in: aborting `request.signal`, breaking out of the loop, or the iterator's `return()`
 * (even while a `next()` is pending: that `next()` resolves done) cancels all three stages at
 * once (their provider connections are closed); nothing is yielded after it, the iterator
 * throws AbortError (after a signal's abort) and `result` rejects with AbortError (after a
 * signal's abort: at the abort, the same error, even while the caller's loop is busy with an
 * event or has stopped asking for more).
 *
 * @throws from the iterator (and `result` rejects with it), at its first step, before any
 *   provider is contacted: RequestError when a field of the request is malformed, naming the
 *   field (every field of the three stages is checked, as stt(), chat() and tts() would; the
 *   call itself never throws); RequestError when a
 *   route of `routes` does not exist or serves another capability (field `routes.<stage>`) or
 *   no provider of its route maps the model (`model`) or the voice (`voice`); ConfigError when
 *   a stage's default route is missing from the config; TypeError when `router` is not a router
 *   (a request that is not an object is a RequestError with field `(request)`);
 *   then the first stage error (AllProvidersFailedError, MidStreamError, TimeoutError...),
 *   AbortError after a barge-in (`partialOutput: true` once the turn had yielded an event).
 */
export function voiceTurn(router: Router, request: VoiceTurnRequest): VoiceTurn {
  // A malformed request fails at the first next() (and `result` rejects), as tts(), stt() and
  // chat() do: the caller's `for await` catches it.
  // After router.close(), AbortError first, as the router's own calls do.
  // A missing router or request fails at the first step too (never a read of undefined here).
  const bad = !isRouter(router)
    ? new TypeError(
        `voiceTurn(router, request): router must be a router from createRouter(), got ${valueShape(router)}`,
      )
    : closeSignalOf(router)?.aborted
      ? routerClosed()
      : turnRequestProblem(request);
  const given = (request as Partial<VoiceTurnRequest> | null | undefined)?.audio;
  const audio = new TurnAudio<Uint8Array | AudioChunk>(isAsyncIterable(given) ? given : emptyAudio());
  if (bad) {
    audio.finish();
    return withRemaining(rejectedStream<TurnEvent>(bad, VOICE_TURN), audio);
  }
  const turn = onceStream(
    VOICE_TURN,
    (settle: Settle<TurnResult>) => {
      const control: TurnControl = {};
      return new TurnIterator(runTurn(router, request, audio, settle, control), () => {
        if (control.abandon) control.abandon();
        else {
          // return() before the first next(): the turn never ran.
          audio.finish();
          settle.reject(new AbortError('The voice turn was abandoned', { partialOutput: false }));
        }
      });
    },
    // `result` awaited before the turn is iterated: only a barge-in or router.close() ends it.
    (settle) =>
      rejectOnAbort(
        settle,
        { signal: request.signal, closeSignal: closeSignalOf(router) },
        'The voice turn was aborted',
      ),
  );
  return withRemaining(turn, audio);
}

/** `stream` with the `remainingAudio` of a {@link VoiceTurn}. */
function withRemaining(stream: object, audio: TurnAudio<Uint8Array | AudioChunk>): VoiceTurn {
  Object.defineProperty(stream, 'remainingAudio', { value: audio.remaining(), enumerable: true });
  return stream as VoiceTurn;
}

function isRouter(value: unknown): value is Router {
  return typeof (value as Partial<Router> | null)?.stt === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | AudioChunk> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

async function* emptyAudio(): AsyncGenerator<Uint8Array, void, undefined> {}

/** How the turn's iterator ends a running turn from outside its generator (see TurnIterator). */
interface TurnControl {
  /** Ends the turn now, as a break does: its stages are aborted, `result` rejects with AbortError. */
  abandon?: () => void;
}

async function* runTurn(
  router: Router,
  request: VoiceTurnRequest,
  input: TurnAudio<Uint8Array | AudioChunk>,
  settle: Settle<TurnResult>,
  control: TurnControl,
): AsyncGenerator<TurnEvent, void, undefined> {
  const t0 = performance.now();
  const at = () => performance.now() - t0;
  // An unknown route, model or voice of any stage fails the turn before the first stage (STT,
  // which is billed) starts: no provider is contacted.
  const preflight = preflightOf(router);
  const config = preflight && turnConfigProblem(request, preflight);
  if (config) {
    input.finish();
    settle.reject(config);
    throw config;
  }
  const turn = new AbortController();
  const routes = request.routes ?? {};
  const queue = new EventQueue<TurnEvent>();
  /** An event reached the caller: an AbortError after it has `partialOutput: true`. */
  let yielded = false;
  /** The AbortError of a barge-in by `request.signal`: `result` rejects with it, the iterator throws it. */
  let aborted: AbortError | undefined;
  const abortError = () =>
    (aborted ??= new AbortError('The voice turn was aborted', {
      cause: request.signal?.reason,
      partialOutput: yielded,
    }));
  // A barge-in ends the turn at the abort, not at the caller's next next(): the stages stop,
  // a pending next() throws, and `result` rejects at once, even while the caller's loop is busy
  // with an event (playing it) or has stopped asking for more.
  const onAbort = () => {
    const error = abortError();
    turn.abort(request.signal?.reason);
    queue.fail(error);
    settle.reject(error);
  };
  if (request.signal?.aborted) onAbort();
  else request.signal?.addEventListener('abort', onAbort, { once: true });
  /** The iterator's return() came while a next() was pending. */
  let abandoned = false;
  /** A barge-in (the caller's signal, return()): nothing more reaches the caller, queued events included. */
  const bargedIn = () => abandoned || request.signal?.aborted === true;
  // The iterator's return() while a next() is pending: the wait for the next event ends now.
  control.abandon = () => {
    abandoned = true;
    const error = new AbortError('The voice turn was abandoned', { partialOutput: yielded });
    turn.abort(error);
    queue.fail(error);
  };
  /**
   * A stage failed: the other stages stop, and the caller still gets every event that came
   * before the failure (the audio already synthesized, the deltas already streamed), then the
   * error, however far behind its loop is (a player paced at real time). An abort (router.close(),
   * a barge-in) drops them: nothing is yielded after it.
   */
  const fail = (error: unknown) => {
    queue.fail(error, !AbortError.isInstance(error));
    turn.abort(error);
  };
  const timeline: TurnTimeline = { endOfSpeechMs: Number.NaN, finalTranscriptMs: Number.NaN, ownMs: 0 };
  const stages: Partial<TurnResult['stages']> = {};
  let transcript = '';
  const toolCalls: ToolCall[] = [];
  let reply = '';
  /** What the budget has left now, in ms (undefined: no budget). */
  const left = () =>
    request.budgetMs === undefined ? undefined : request.budgetMs - (at() - timeline.endOfSpeechMs);

  const work = async () => {
    const audio = input.read(() => {
      if (Number.isNaN(timeline.endOfSpeechMs)) timeline.endOfSpeechMs = at();
    });
    const stt = router.stt({
      audio,
      format: request.format,
      signal: turn.signal,
      ...(routes.stt !== undefined ? { route: routes.stt } : {}),
      ...sttFields(request),
    });
    const finals: string[] = [];
    let heard!: () => void;
    /** Resolves at the STT provider's endpoint: the user's speech ended while the audio goes on. */
    const endpoint = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const listening = (async () => {
      for await (const event of stt) {
        queue.push({ type: 'transcript', event });
        // After the endpoint the transcript is settled: later finals are shown, not replied to.
        if (event.type !== 'final' || input.stopped) continue;
        finals.push(event.text.trim());
        const now = at();
        timeline.finalTranscriptMs = now;
        // An endpoint ends the speech only while the audio goes on: once the caller's audio has
        // ended, all of it is this turn's, and every final of it is the transcript.
        if (event.endOfSpeech === true && input.stop()) {
          timeline.endOfSpeechMs = now;
          heard();
        }
      }
      stages.stt = await stt.result;
    })();
    await Promise.race([endpoint, listening]);
    if (input.stopped) {
      // The STT stage flushes and closes while the reply is made: its failure is the turn's.
      listening.catch(fail);
    }
    if (Number.isNaN(timeline.endOfSpeechMs)) timeline.endOfSpeechMs = at();
    if (Number.isNaN(timeline.finalTranscriptMs)) timeline.finalTranscriptMs = at();
    transcript = finals.filter((t) => t !== '').join(' ');
    if (transcript === '') {
      await listening;
      return;
    }

    const measured = router.stats();
    const chat = router.chat({
      messages: [...request.messages, { role: 'user', content: transcript }],
      model: request.model,
      ...chatFields(request),
      signal: turn.signal,
      ...(routes.chat !== undefined ? { route: routes.chat } : {}),
      ...stageDeadlines(left(), expectedTtfcMs(measured, 'tts'), expectedTtfcMs(measured, 'chat')),
    });
    const tokens = new EventQueue<string>();
    // The TTS stage's language: the turn's clauses are found as tts() finds them.
    const speech = ttsFields(request);
    const clauses = new ClauseSplitter(speech.language !== undefined ? { locale: speech.language } : {});
    /** The first clause the splitter found with something to speak (text of only "\n\n", "...", a code fence is none). */
    const clauseFound = (chunks: string[]) => {
      if (timeline.firstClauseMs === undefined && chunks.some(speakable)) timeline.firstClauseMs = at();
    };
    let speaking: Promise<void> | undefined;
    /** When TTS was started (at the first token), ms from the voiceTurn() call. */
    let ttsStartMs = 0;
    /** Chat failed: TTS speaks the complete sentences it was given, and its failure is not the turn's. */
    let chatFailed = false;
    const startTts = () => {
      ttsStartMs = at();
      const tts = router.tts({
        text: tokens.drain(),
        voice: request.voice,
        signal: turn.signal,
        ...(request.output ? { format: request.output } : {}),
        ...(routes.tts !== undefined ? { route: routes.tts } : {}),
        ...speech,
        ...stageDeadlines(left(), 0, expectedTtfcMs(router.stats(), 'tts')),
      });
      speaking = (async () => {
        for await (const chunk of tts as AsyncIterable<AudioChunk>) {
          timeline.firstAudioMs ??= at();
          queue.push({ type: 'audio', chunk });
        }
        stages.tts = await tts.result;
      })();
      // Awaited below; a failure while chat still streams is seen there, or cancels the turn now.
      speaking.catch((error: unknown) => {
        if (!chatFailed) fail(error);
      });
    };
    try {
      for await (const event of chat) {
        if (event.type === 'tool-call') {
          toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
          continue;
        }
        if (event.type !== 'text-delta' || event.text === '') continue;
        timeline.firstTokenMs ??= at();
        reply += event.text;
        queue.push({ type: 'reply-delta', text: event.text });
        tokens.push(event.text);
        if (!speaking) startTts();
        if (timeline.firstClauseMs === undefined) clauseFound(clauses.push(event.text));
      }
    } catch (error) {
      chatFailed = true;
      // Every token shown to the caller reaches TTS before the failure does.
      tokens.fail(error, true);
      if (!speaking || turn.signal.aborted) throw error;
      // The reply shown so far is spoken up to its last complete sentence (a short one held to
      // be joined to the next clause included, an unfinished one not), then the turn fails
      // with chat's error once the caller has had that audio.
      await speaking.catch(() => {});
      if (turn.signal.aborted) throw error;
      queue.fail(error, true);
      return;
    }
    tokens.end();
    // A short reply with no boundary inside: its one clause exists once the reply ended.
    if (timeline.firstClauseMs === undefined) clauseFound(clauses.end());
    stages.chat = await chat.result;
    if (speaking) await speaking;
    // Text held for the next token is given to the TTS provider once the LLM has paused (tts()'s
    // held-text rule, which the turn's splitter does not run): its clock start tells when.
    const given = stages.tts && clockStartOf(stages.tts);
    if (given !== undefined)
      timeline.firstClauseMs = Math.min(
        timeline.firstClauseMs ?? Number.POSITIVE_INFINITY,
        ttsStartMs + given,
      );
    await listening;
  };

  let done = false;
  work().then(() => queue.end(), fail);
  try {
    for await (const event of queue.drain()) {
      if (bargedIn()) break;
      yielded = true;
      yield event;
    }
    if (request.signal?.aborted) throw abortError();
    if (turn.signal.aborted) throw turn.signal.reason;
    timeline.ownMs = ownShare(timeline, stages);
    done = true;
    settle.resolve({ transcript, reply, toolCalls, stages: stages as TurnResult['stages'], timeline });
  } catch (error) {
    done = true;
    const thrown = request.signal?.aborted ? abortError() : error;
    settle.reject(thrown);
    throw thrown;
  } finally {
    input.finish();
    request.signal?.removeEventListener('abort', onAbort);
    if (!done) {
      // The caller broke out of the loop: barge-in.
      const error = new AbortError('The voice turn was abandoned', { partialOutput: yielded });
      turn.abort(error);
      settle.reject(error);
    }
  }
}

/**
 * voxroute's own time on the critical path (see {@link TurnTimeline.ownMs}): end of speech ->
 * first audio, minus the time spent waiting on providers.
 */
function ownShare(t: TurnTimeline, stages: Partial<TurnResult['stages']>): number {
  if (t.firstAudioMs === undefined || t.firstTokenMs === undefined || t.firstClauseMs === undefined) return 0;
  const path = t.firstAudioMs - t.endOfSpeechMs;
  const stt = Math.max(0, t.finalTranscriptMs - t.endOfSpeechMs);
  // TTS starts at the first token: its wait, from its start, includes the LLM's time from first
  // token to first clause (and to its first letter: tts() starts no attempt before the text has
  // something to speak, so its first attempt's start is no time of voxroute's).
  const tts = stages.tts?.timeToFirstChunkMs ?? 0;
  return Math.max(0, path - stt - providerWait(stages.chat) - tts);
}

/**
 * When the TTS provider that first answered had been given its first clause, in ms from the
 * tts() call (its attempt's clock starts there, see RouteCandidate.startsClock); undefined when
 * no attempt answered.
 */
function clockStartOf(result: RouteResult): number | undefined {
  const first = result.attempts.find((a) => a.timeToFirstChunkMs !== undefined);
  if (first === undefined) return undefined;
  return Math.max(0, result.timeToFirstChunkMs - first.timeToFirstChunkMs!);
}

/** From the first attempt's start to the first chunk: time spent waiting on providers, fallbacks included. */
function providerWait(result: RouteResult | undefined): number {
  if (!result) return 0;
  return result.timeToFirstChunkMs - (result.attempts[0]?.startedAtMs ?? 0);
}
