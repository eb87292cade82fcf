import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import { createOpenAiCompatibleMock, startMockServer } from '../../src/testing/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});

describe('OpenTelemetry spans, recorded by the real SDK (@opentelemetry/sdk-trace-base)', () => {
  it('records one span per call with GenAI attributes and an event per attempt, and no secret', async () => {
    exporter.reset();
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
          chat: { models: { m: 'model-a' } },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: `${b.url}/v1`,
          apiKey: 'sk-test-secret-value',
          chat: { models: { m: 'model-b' } },
        },
      },
      routes: { chat: { providers: ['a', 'b'], strategy: 'priority' } },
    });
    try {
      await router.warmup();
      for await (const _ of router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'm' })) {
        // drain
      }
      const spans = exporter.getFinishedSpans();
      expect(spans).toHaveLength(1);
      const span = spans[0]!;
      expect(span.name).toBe('voxroute.chat');
      expect(span.instrumentationScope.name).toBe('voxroute');
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.events.map((e) => `${e.name}:${e.attributes?.['voxroute.provider']}`)).toEqual([
        'attempt:a',
        'error:a',
        'fallback:a',
        'attempt:b',
        'first-chunk:b',
      ]);
      expect(span.events.map((e) => e.attributes?.['gen_ai.request.model'])).toEqual([
        'model-a',
        'model-a',
        'model-a',
        'model-b',
        'model-b',
      ]);
      expect(span.events[1]!.attributes).toMatchObject({
        'error.type': 'ProviderError',
        'voxroute.error.code': 'PROVIDER_ERROR',
        'voxroute.error.status': 503,
      });
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'model-b',
        'voxroute.capability': 'chat',
        'voxroute.route': 'chat',
        'voxroute.provider': 'b',
        'voxroute.attempts': 2,
      });
      expect(typeof span.attributes['voxroute.ttfc_ms']).toBe('number');
      expect(JSON.stringify(spans.map((s) => [s.attributes, s.events]))).not.toContain(
        'sk-test-secret-value',
      );
    } finally {
      await router.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a call that delivered no chunk (streamed text with nothing to speak) has no voxroute.ttfc_ms', async () => {
    exporter.reset();
    const a = await startMockServer({ provider: createOpenAiCompatibleMock({}) });
    const router = createRouter({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${a.url}/v1`,
          apiKey: 'k',
          tts: { voices: { agent: 'v' } },
        },
      },
      routes: { tts: { providers: ['a'] } },
    });
    try {
      await router.warmup();
      async function* blank() {
        yield '  ';
        yield '\n';
      }
      const stream = router.tts({ text: blank(), voice: 'agent' });
      const chunks: unknown[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks).toEqual([]);
      const result = await stream.result;
      expect(result.timeToFirstChunkMs).toBe(result.durationMs);
      const spans = exporter.getFinishedSpans();
      expect(spans.map((s) => [s.name, s.status.code])).toEqual([['voxroute.tts', SpanStatusCode.UNSET]]);
      expect(spans[0]!.attributes['voxroute.duration_ms']).toBe(result.durationMs);
      expect('voxroute.ttfc_ms' in spans[0]!.attributes).toBe(false);
    } finally {
      await router.close();
      await a.close();
    }
  });

  it('marks the span of a failed call as an error with the class and code, not the message', async () => {
    exporter.reset();
    const a = await startMockServer({
      provider: createOpenAiCompatibleMock({ script: { failTimes: 9, failStatus: 503 } }),
    });
    const router = createRouter({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${a.url}/v1`, apiKey: 'k', chat: { models: { m: 'x' } } },
      },
      routes: { chat: { providers: ['a'] } },
    });
    try {
      await router.warmup();
      const stream = router.chat({ messages: [{ role: 'user', content: 'hi' }], model: 'm' });
      await expect(
        (async () => {
          for await (const _ of stream) {
            // drain
          }
        })(),
      ).rejects.toMatchObject({ name: 'AllProvidersFailedError' });
      const spans = exporter.getFinishedSpans();
      expect(spans.map((s) => [s.name, s.status.code])).toEqual([['voxroute.chat', SpanStatusCode.ERROR]]);
      expect(spans[0]!.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'error.type': 'AllProvidersFailedError',
        'voxroute.attempts': 1,
      });
      expect(spans[0]!.attributes['gen_ai.request.model']).toBeUndefined();
    } finally {
      await router.close();
      await a.close();
    }
  });
});
