import { ProviderError } from '../errors/provider-error.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { CallSpan } from '../telemetry/tracing.js';
import type { Capability } from '../types/route-result.js';
import type { RouterEmitter, RouterEventBase, RouterEvents } from './events.js';

/** The events of a call's attempts, as the attempt loop emits them. */
export type CallEventName = 'attempt' | 'hedge' | 'first-chunk' | 'fallback' | 'error';

/**
 * A call's router events: each goes to the router's listeners and onto the call's span. An
 * event object is built only when someone will see it ({@link wants}): a call with no listener
 * and no span builds none.
 */
export class CallEvents {
  readonly #emitter: RouterEmitter;
  readonly #span: CallSpan | undefined;
  readonly #capability: Capability;
  readonly #route: string;

  constructor(emitter: RouterEmitter, span: CallSpan | undefined, capability: Capability, route: string) {
    this.#emitter = emitter;
    this.#span = span;
    this.#capability = capability;
    this.#route = route;
  }

  /** True when an event `name` reaches a listener or the call's span: build it only then. */
  wants(name: CallEventName): boolean {
    return this.#span !== undefined || this.#emitter.has(name);
  }

  /** The fields every event about attempt number `attempt` (1-based) carries: a new object. */
  base(provider: string, model: string | undefined, attempt: number): RouterEventBase {
    const base: RouterEventBase = { capability: this.#capability, route: this.#route, provider, attempt };
    if (model !== undefined) base.model = model;
    return base;
  }

  /** Emits `event` to the router's listeners and records it on the call's span. */
  emit<E extends CallEventName>(name: E, event: RouterEvents[E]): void {
    this.#emitter.emit(name, event);
    this.#span?.event(name, spanAttributes(event as RouterEventBase & Record<string, unknown>));
  }
}

/** The span attributes of a router event: names, numbers and error codes, never a message. */
function spanAttributes(
  event: RouterEventBase & Record<string, unknown>,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {
    'voxroute.provider': event.provider,
    'voxroute.attempt': event.attempt,
  };
  if (event.model !== undefined) out['voxroute.model'] = event.model;
  if (event.elapsedMs !== undefined) out['voxroute.elapsed_ms'] = event.elapsedMs;
  if (typeof event.timeToFirstChunkMs === 'number') out['voxroute.ttfc_ms'] = event.timeToFirstChunkMs;
  if (typeof event.next === 'string') out['voxroute.next'] = event.next;
  if (typeof event.partialOutput === 'boolean') out['voxroute.partial_output'] = event.partialOutput;
  if (VoxrouteError.isInstance(event.error)) {
    out['error.type'] = event.error.name;
    out['voxroute.error.code'] = event.error.code;
    if (ProviderError.isInstance(event.error) && event.error.status !== undefined) {
      out['voxroute.error.status'] = event.error.status;
    }
  }
  return out;
}
