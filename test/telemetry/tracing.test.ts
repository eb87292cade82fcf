import { type Span, type Tracer, type TracerProvider, trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import { createOpenAiCompatibleMock, startMockServer } from '../../src/testing/index.js';

interface Recorded {
  name: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status?: { code: number };
  ended: boolean;
}

/** A tracer provider that records every span in memory. */
function recordingProvider(spans: Recorded[]): TracerProvider {
  const tracer = {
    startSpan(name: string, options?: { attributes?: Record<string, unknown> }): Span {
      const rec: Recorded = { name, attributes: { ...options?.attributes }, events: [], ended: false };
      spans.push(rec);
      const span = {
        isRecording: () => true,
        addEvent: (n: string, a?: Record<string, unknown>) => {
          rec.events.push({ name: n, attributes: { ...a } });
          return span;
        },
        setAttributes: (a: Record<string, unknown>) => {
          Object.assign(rec.attributes, a);
          return span;
        },
        setAttribute: (k: string, v: unknown) => {
          rec.attributes[k] = v;
          return span;
        },
        setStatus: (s: { code: number }) => {
          rec.status = s;
          return span;
        },
        end: () => {
          rec.ended = true;
        },
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { getTracer: () => tracer };
}

afterAll(() => trace.disable());

describe('OpenTelemetry spans', () => {
  it('records one span per call with an event per attempt, and no secret in any attribute', async () => {
    const spans: Recorded[] = [];
    trace.setGlobalTracerProvider(recordingProvider(spans));
    const a = await startMockServer({
      provider: createOpenAiCompatibleMock({ script: { failTimes: 9, failStatus: 503 } }),
    });
    const b = await startMockServer({
      provider: createOpenAiCompatibleMock({ apiKey: 'sk-test-secret-value' }),
    });
    const router = createRouter({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${a.url}/v1`,
          apiKey: 'sk-test-secret-value',
          chat: { models: { m: 'x' } },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: `${b.url}/v1`,
          apiKey: 'sk-test-secret-value',
          chat: { models: { m: 'x' } },
        },
      },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    try {
      await router.warmup();
      for await (const _ of router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'm' })) {
        // drain
      }
      expect(spans).toHaveLength(1);
      const span = spans[0]!;
      expect(span.name).toBe('voxroute.chat');
      expect(span.ended).toBe(true);
      expect(span.events.map((e) => `${e.name}:${e.attributes['voxroute.provider']}`)).toEqual([
        'attempt:a',
        'error:a',
        'fallback:a',
        'attempt:b',
        'first-chunk:b',
      ]);
      expect(span.events[1]!.attributes).toMatchObject({
        'error.type': 'ProviderError',
        'voxroute.error.code': 'PROVIDER_ERROR',
        'voxroute.error.status': 503,
      });
      expect(span.attributes).toMatchObject({
        'voxroute.route': 'chat',
        'voxroute.provider': 'b',
        'voxroute.attempts': 2,
      });
      expect(JSON.stringify(spans)).not.toContain('sk-test-secret-value');
    } finally {
      await router.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
