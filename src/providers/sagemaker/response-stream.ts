import { AbortError, ProtocolError, TimeoutError, type VoxrouteError } from '../../errors/index.js';
import type { Clock } from '../../internal/clock.js';
import type { AttemptContext } from '../types.js';
import { decodeInScope, openAttemptScope } from './attempt-scope.js';
import type { SageMakerInvocation } from './codec.js';
import { withDeadline } from './deadline.js';
import { invokeError, streamError, thrownStreamError } from './errors.js';
import type { SageMakerStreamClient, SageMakerStreamEvent, SageMakerStreamInput } from './stream-client.js';

/** Where and how one provider's invocations go (the settings shared by every call). */
export interface SageMakerTarget {
  provider: string;
  endpointName: string;
  targetVariant?: string;
  inferenceComponent?: string;
  sessionId?: string;
  customAttributes?: string;
  /** Credential values to keep out of every message (see `secretHeaders`). */
  secrets?: Record<string, string>;
  clock: Clock;
}

/**
 * Runs one `InvokeEndpointWithResponseStream` call and yields what `decode` makes of its
 * PayloadPart bytes, counting as output the items `isOutput` accepts (for `partialOutput`).
 *
 * Deadlines (from `attempt.deadlines`, in ms): `connectMs` is the SDK client's connect timeout
 * (TimeoutError `connect`); `headersMs` bounds the wait for the HTTP response (`headers`);
 * `firstByteMs` the wait for the first PayloadPart (`first-chunk`; the router usually keeps its
 * own first-chunk deadline instead); `idleMs` the gap between two PayloadParts (`idle`, a
 * stalled stream); `totalMs` the whole call (`total`). A deadline aborts the request, which
 * closes the connection. `attempt.signal` aborting, or the consumer stopping (`return()`), also
 * aborts it at once (barge-in) and the call ends with AbortError in the first case.
 *
 * An error status is reported to `attempt.onErrorStatus` before its body is read (the SDK reads
 * that body for at most 1000 ms, see `boundedErrorBody`).
 *
 * Errors: see `invokeError` (before the stream) and `streamError` / `thrownStreamError`
 * (after HTTP 200); errors of `decode` get `partialOutput` = whether output was yielded.
 */
export async function* runResponseStream<T>(
  client: SageMakerStreamClient,
  target: SageMakerTarget,
  invocation: SageMakerInvocation,
  attempt: AttemptContext,
  decode: (parts: AsyncIterable<Uint8Array>) => AsyncIterable<T>,
  isOutput: (item: T) => boolean,
): AsyncGenerator<T, void, undefined> {
  const { provider, clock, secrets } = target;
  const deadlines = attempt.deadlines;
  const scope = openAttemptScope(attempt, clock, provider);
  const { controller, abortWith, hadOutput } = scope;
  let finished = false;
  let events: AsyncIterator<SageMakerStreamEvent> | undefined;
  try {
    const input: SageMakerStreamInput = {
      EndpointName: target.endpointName,
      Body: typeof invocation.body === 'string' ? new TextEncoder().encode(invocation.body) : invocation.body,
      ContentType: invocation.contentType,
    };
    if (invocation.accept !== undefined) input.Accept = invocation.accept;
    if (target.customAttributes !== undefined) input.CustomAttributes = target.customAttributes;
    if (target.targetVariant !== undefined) input.TargetVariant = target.targetVariant;
    if (target.inferenceComponent !== undefined) input.InferenceComponentName = target.inferenceComponent;
    if (target.sessionId !== undefined) input.SessionId = target.sessionId;

    let output: Awaited<ReturnType<SageMakerStreamClient['invoke']>>;
    try {
      output = await withDeadline(
        client.invoke(input, {
          abortSignal: controller.signal,
          connectMs: deadlines.connectMs ?? 0,
          ...(attempt.onErrorStatus ? { onErrorStatus: attempt.onErrorStatus } : {}),
        }),
        deadlines.headersMs,
        clock,
        () => abortWith(new TimeoutError('headers', deadlines.headersMs!, { provider })),
      );
    } catch (error) {
      throw scope.failure ?? invokeError(provider, error, deadlines.connectMs ?? 0, secrets);
    }
    const body = output.Body;
    if (!body)
      throw new ProtocolError(`Provider '${provider}' answered without an event stream`, { provider });

    events = body[Symbol.asyncIterator]();
    const parts = payloadParts(events, {
      provider,
      clock,
      secrets,
      deadlines,
      hadOutput,
      failure: () => scope.failure,
      abortWith,
    });
    yield* decodeInScope(scope, decode(parts), isOutput);
    finished = true;
  } finally {
    scope.dispose();
    // Ending early (an error, a deadline, the consumer's return()) closes the connection:
    // the abort destroys the request and its socket; closing the SDK's event iterator also
    // destroys the response stream (what an intercepted request, e.g. through msw, sees).
    if (!finished) {
      if (!controller.signal.aborted) controller.abort(new AbortError('Attempt closed'));
      events?.return?.().catch(() => {});
    }
  }
}

interface PartsContext {
  provider: string;
  clock: Clock;
  secrets: Record<string, string> | undefined;
  deadlines: AttemptContext['deadlines'];
  hadOutput: () => boolean;
  failure: () => VoxrouteError | undefined;
  abortWith: (error: VoxrouteError) => VoxrouteError;
}

/**
 * The bytes of each PayloadPart, in order (empty parts skipped), with the first-byte and idle
 * deadlines. `ModelStreamError` and `InternalStreamFailure` members throw the typed stream
 * error; unknown members are skipped (as the SDK skips unknown event types, 5.3).
 */
async function* payloadParts(
  iterator: AsyncIterator<SageMakerStreamEvent>,
  context: PartsContext,
): AsyncGenerator<Uint8Array, void, undefined> {
  const { provider, clock, secrets, deadlines, hadOutput } = context;
  let parts = 0;
  let received = 0; // PayloadPart bytes handed on: what a cut connection is reported after
  for (;;) {
    const ms = parts === 0 ? deadlines.firstByteMs : deadlines.idleMs;
    let step: IteratorResult<SageMakerStreamEvent>;
    try {
      step = await withDeadline(iterator.next(), ms, clock, () =>
        context.abortWith(
          new TimeoutError(parts === 0 ? 'first-chunk' : 'idle', ms!, {
            provider,
            partialOutput: hadOutput(),
          }),
        ),
      );
    } catch (error) {
      throw context.failure() ?? thrownStreamError(provider, error, hadOutput(), secrets, received);
    }
    if (step.done) return;
    const event = step.value;
    if (event.PayloadPart) {
      parts++;
      const bytes = event.PayloadPart.Bytes;
      if (bytes && bytes.byteLength > 0) {
        received += bytes.byteLength;
        yield bytes;
      }
    } else if (event.ModelStreamError) {
      throw streamError(provider, 'ModelStreamError', event.ModelStreamError, hadOutput(), secrets);
    } else if (event.InternalStreamFailure) {
      throw streamError(provider, 'InternalStreamFailure', event.InternalStreamFailure, hadOutput(), secrets);
    }
  }
}
