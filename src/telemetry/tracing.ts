import type { Attributes, Span, Tracer } from '@opentelemetry/api';

/** Attribute values voxroute puts on spans: never a secret, never a payload. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** The span of one routed call. */
export interface CallSpan {
  /** Adds a timestamped event (an attempt, a fallback, a hedge, the first chunk). */
  event(name: string, attributes: SpanAttributes): void;
  /** Ends the span: `error` marks it as failed (its class and code are recorded, not its message). */
  end(attributes: SpanAttributes, error?: unknown): void;
}

/** Starts call spans. */
export interface Tracing {
  startCall(name: string, attributes: SpanAttributes): CallSpan | undefined;
}

const NAME = 'voxroute';

/**
 * OpenTelemetry tracing through @opentelemetry/api: a span per routed call (`voxroute.tts`,
 * `voxroute.stt`, `voxroute.chat`) with an event per attempt, fallback, hedge and first chunk.
 * It is a no-op unless the application registers a tracer provider. The API module is loaded
 * in the background (so importing voxroute stays fast): calls made in the first few ms after
 * createRouter, before it has loaded, get no span; `router.warmup()` waits for it.
 * Attributes hold names, counts, times (ms) and error codes only: no secret, URL or payload.
 */
export function createTracing(version: string): Tracing & { ready: Promise<void> } {
  let tracer: Tracer | undefined;
  let spanStatusError = 2;
  const ready = import('@opentelemetry/api').then(
    (api) => {
      tracer = api.trace.getTracer(NAME, version);
      spanStatusError = api.SpanStatusCode.ERROR;
    },
    () => {},
  );
  return {
    ready,
    startCall(name, attributes) {
      if (!tracer) return undefined;
      const span: Span = tracer.startSpan(name, { attributes: attributes as Attributes });
      if (!span.isRecording()) return undefined;
      return {
        event: (eventName, eventAttributes) => span.addEvent(eventName, eventAttributes as Attributes),
        end: (endAttributes, error) => {
          span.setAttributes(endAttributes as Attributes);
          if (error !== undefined) {
            const e = error as { name?: unknown; code?: unknown };
            span.setAttribute('error.type', typeof e.name === 'string' ? e.name : 'Error');
            if (typeof e.code === 'string') span.setAttribute('voxroute.error.code', e.code);
            span.setStatus({ code: spanStatusError });
          }
          span.end();
        },
      };
    },
  };
}
