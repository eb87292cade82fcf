import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { operationOf } from './gen-ai.js';

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
 * A check, cheap enough for every call, that no tracer provider is registered with this copy of
 * the OpenTelemetry API: the global provider is then the API's own proxy with the no-op delegate
 * (`setGlobalTracerProvider()` sets the proxy's delegate; `trace.disable()` puts a new proxy
 * without one). A provider from another copy of the API, or any other shape, counts as
 * registered (spans are then started as before).
 */
function noProviderCheck(api: typeof import('@opentelemetry/api')): () => boolean {
  const ProxyProvider = api.ProxyTracerProvider;
  const noop = new ProxyProvider().getDelegate();
  return () => {
    const provider = api.trace.getTracerProvider();
    return provider instanceof ProxyProvider && provider.getDelegate() === noop;
  };
}

/**
 * OpenTelemetry tracing through @opentelemetry/api (an optional peer dependency): a span per
 * routed call (`voxroute.tts`, `voxroute.stt`, `voxroute.chat`) with an event per attempt,
 * fallback, hedge and first chunk. It is a no-op unless the application registers a tracer
 * provider, and when the API package is not installed. The API module is loaded in the
 * background (so importing voxroute stays fast): calls made in the first few ms after
 * createRouter, before it has loaded, get no span; `router.warmup()` waits for it.
 *
 * Beside voxroute's own `voxroute.*` attributes, spans carry the OpenTelemetry GenAI semantic
 * conventions' `gen_ai.operation.name` (from the capability) and `gen_ai.request.model` (the
 * model or voice id of the attempt that produced the first chunk; on events, of that attempt).
 * Attributes hold names, counts, times (ms) and error codes only: no secret, URL or payload.
 */
export function createTracing(version: string): Tracing & { ready: Promise<void> } {
  let tracer: Tracer | undefined;
  let spanStatusError = 2;
  /** True while no tracer provider is registered: every span would be a non-recording one. */
  let unregistered: () => boolean = () => false;
  const ready = import('@opentelemetry/api').then(
    (api) => {
      tracer = api.trace.getTracer(NAME, version);
      spanStatusError = api.SpanStatusCode.ERROR;
      unregistered = noProviderCheck(api);
    },
    () => {},
  );
  return {
    ready,
    startCall(name, attributes) {
      // No provider registered (the common case without OpenTelemetry set up): the API would
      // hand back a non-recording span, which gives undefined below; skip building it.
      if (!tracer || unregistered()) return undefined;
      const operation = operationOf(attributes['voxroute.capability']);
      const span: Span = tracer.startSpan(name, {
        attributes: {
          ...attributes,
          ...(operation ? { 'gen_ai.operation.name': operation } : {}),
        } as Attributes,
      });
      if (!span.isRecording()) return undefined;
      let firstChunkModel: string | undefined;
      return {
        event: (eventName, eventAttributes) => {
          const model = eventAttributes['voxroute.model'];
          if (typeof model === 'string' && eventName === 'first-chunk') firstChunkModel = model;
          span.addEvent(eventName, {
            ...eventAttributes,
            ...(typeof model === 'string' ? { 'gen_ai.request.model': model } : {}),
          } as Attributes);
        },
        end: (endAttributes, error) => {
          span.setAttributes(endAttributes as Attributes);
          if (firstChunkModel !== undefined) span.setAttribute('gen_ai.request.model', firstChunkModel);
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
