import type { ResampleOffload } from '../audio/resample-offload.js';
import type { ResolvedProviderConfig } from '../config/index.js';
import type { ErrorRedactor } from '../errors/redact.js';
import type { Clock } from '../internal/clock.js';
import type { ProviderAdapter } from '../providers/types.js';
import type { Capability } from '../types/route-result.js';
import type { RouteCandidate, RouteRun } from './route-run.js';
import type { Logger } from './router-types.js';

/**
 * One call of one capability (tts, stt or chat): its request, and the mid-stream rules of that
 * capability. The planner asks it, for each provider of the route, how that provider would serve
 * the call (`candidate`); the attempt loop then drives the hooks: `isEmpty` before any provider,
 * `onDelivered` for each item the caller gets, `textOf` for MidStreamError's partial text,
 * `markResumed` on the first item after a mid-stream switch of provider, `position` to rule a
 * provider out only where it failed, `release` once the call ended.
 */
export interface CapabilityCall<T, C extends Capability = Capability>
  extends Pick<
    RouteRun<T>,
    | 'isEmpty'
    | 'markResumed'
    | 'textOf'
    | 'onDelivered'
    | 'callerError'
    | 'release'
    | 'joinText'
    | 'position'
    | 'canResume'
    | 'toolCalls'
    | 'complete'
    | 'latencyOf'
    | 'waitedOf'
  > {
  capability: C;
  /**
   * The logical name the call asks its providers to map (tts: the voice, chat: the model) and
   * the names a provider's section maps; absent when there is none to map (stt). When no
   * provider of the route maps it, the call is a RequestError naming `field`, listing the
   * names the route's providers map.
   */
  mapped?: MappedName<C>;
  /**
   * How provider `name` serves this call, given its adapter of the capability and the
   * capability's section of its config; or why it cannot (a sentence naming the missing
   * mapping, e.g. "no voice 'nova' in its tts.voices").
   */
  candidate(
    name: string,
    adapter: NonNullable<ProviderAdapter[C]>,
    section: CapabilitySections[C],
  ): CandidateStart<T> | string;
}

/** The logical name a call asks the providers of its route to map (see CapabilityCall.mapped). */
export interface MappedName<C extends Capability> {
  /** The request field that holds it: `'voice'` or `'model'`. */
  field: 'voice' | 'model';
  /** The name the caller asked for. */
  name: string;
  /** The names a provider's section of the capability maps, in config order. */
  known(section: CapabilitySections[C]): readonly string[];
}

/** What a capability gives the planner for one provider of the route. */
export interface CandidateStart<T> {
  /** Provider-side model or voice id. */
  model: string | undefined;
  /** Starts an attempt on this provider, from where the call stands (see the capability module). */
  start: RouteCandidate<T>['start'];
  /**
   * The provider answers only once all input is in: the promise that resolves when the input
   * has ended. A function, called when an attempt starts: reading the caller's input to find
   * its end starts then, never when the call is made (a stream starts when it is iterated).
   */
  inputEnded?: () => Promise<void>;
  /** The attempt calls `start`'s `ready` when its provider has had enough input (see RouteCandidate.startsClock). */
  startsClock?: boolean;
  /**
   * The provider answers when the speaker pauses (streaming STT), which can be long after the
   * attempt starts: an `'auto'` first-chunk deadline does not apply (a number still does).
   */
  answersOnPause?: boolean;
  /**
   * False when the provider cannot take over a stream another provider cut after output (chat:
   * it does not continue a trailing assistant message, so it would answer anew and the caller
   * would get the start of the reply twice): a mid-stream failure never hands the call to it.
   * Absent: true.
   */
  takesOver?: boolean;
}

/** What capability modules take from the router: made once per router, shared by its calls. */
export interface CallContext {
  /** Aborts when the router closes. */
  closeSignal: AbortSignal;
  logger: Logger | undefined;
  /** Where TTS streams resample (the router's worker thread or the event loop); undefined: the event loop. */
  resampling?: ResampleOffload;
  /**
   * The router's redactor (RouteRun.redact): also applied to an error of the caller's own text
   * or audio stream quoted in a RequestError; undefined: none.
   */
  redact?: ErrorRedactor;
  /** The router's clock (RouterOptions.clock, made monotonic); undefined: the system clock. */
  clock?: Clock;
}

/**
 * The capability sections of a provider config, as the router reads them: every provider kind
 * names them `tts` (with `voices` and an optional `model`), `stt` (optional `model` and
 * `language`) and `chat` (with `models`), whatever else each kind adds.
 */
export interface CapabilitySections {
  tts: { model?: string; voices: Record<string, string> };
  stt: { model?: string; language?: string };
  chat: { models: Record<string, string> };
}

/** The capability sections of `provider`'s config (see {@link CapabilitySections}). */
export function sectionOf(provider: ResolvedProviderConfig): Partial<CapabilitySections> {
  return provider as never;
}
