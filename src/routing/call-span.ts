import { ProviderError } from '../errors/provider-error.js';
import { VoxrouteError } from '../errors/voxroute-error.js';
import type { CallSpan } from '../telemetry/tracing.js';
import type { RouterEmitter, RouterEventBase, RouterEvents } from './events.js';

/** The events of a call's attempts, as the attempt loop emits them. */
export type CallEventName = 'attempt' | 'hedge' | 'first-chunk' | 'fallback' | 'error';

/** Emits a call's router event to the router's listeners, and records it on the call's span. */
export function emitCallEvent<E extends CallEventName>(
  emitter: RouterEmitter,
  span: CallSpan | undefined,
  name: E,
  event: RouterEvents[E],
): void {
  emitter.emit(name, event);
  span?.event(name, spanAttributes(event as RouterEventBase & Record<string, unknown>));
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
