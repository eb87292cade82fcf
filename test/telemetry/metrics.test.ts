import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, instrumentRouter, METRIC_NAMES, TTFC_BUCKETS_MS } from '../../src/index.js';
import { RouterEmitter } from '../../src/routing/events.js';
import { createOpenAiCompatibleMock, startMockServer } from '../../src/testing/index.js';

const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
  exportIntervalMillis: 3_600_000,
});
const meterProvider = new MeterProvider({ readers: [reader] });

beforeAll(() => {
  metrics.setGlobalMeterProvider(meterProvider);
});
afterAll(async () => {
  metrics.disable();
  await meterProvider.shutdown();
});

/** The metrics collected so far, by instrument name. */
async function collect(): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect();
  const out = new Map<string, MetricData>();
  for (const scope of resourceMetrics.scopeMetrics) {
    expect(scope.scope.name).toBe('voxroute');
    for (const m of scope.metrics) out.set(m.descriptor.name, m);
  }
  return out;
}

describe('instrumentRouter (metrics through @opentelemetry/api, read by @opentelemetry/sdk-metrics)', () => {
  it('names its instruments', () => {
    expect(METRIC_NAMES).toEqual({
      timeToFirstChunk: 'voxroute.time_to_first_chunk',
      fallbacks: 'voxroute.fallbacks',
      hedges: 'voxroute.hedges',
      breakerOpenings: 'voxroute.breaker.openings',
    });
  });

  it('counts hedges and breaker openings (not other breaker transitions) from the router events', async () => {
    const emitter = new RouterEmitter((e) => {
      throw e;
    });
    const stop = await instrumentRouter(emitter);
    const base = { capability: 'tts' as const, route: 'speak', attempt: 2 };
    emitter.emit('hedge', { ...base, provider: 'b' });
    emitter.emit('hedge', { ...base, provider: 'b' });
    emitter.emit('breaker', {
      provider: 'a',
      capability: 'stt',
      from: 'closed',
      to: 'open',
      reason: 'consecutive-failures',
    });
    emitter.emit('breaker', {
      provider: 'a',
      capability: 'stt',
      from: 'open',
      to: 'half-open',
      reason: 'cooldown-over',
    });
    emitter.emit('breaker', {
      provider: 'a',
      capability: 'stt',
      from: 'half-open',
      to: 'closed',
      reason: 'probe-succeeded',
    });
    stop();
    emitter.emit('hedge', { ...base, provider: 'b' });
    const m = await collect();
    const hedges = m.get('voxroute.hedges')!;
    expect(hedges.descriptor.unit).toBe('{hedge}');
    expect(hedges.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [
        {
          'voxroute.provider': 'b',
          'voxroute.capability': 'tts',
          'gen_ai.operation.name': 'text_to_speech',
          'voxroute.route': 'speak',
        },
        2,
      ],
    ]);
    const openings = m.get('voxroute.breaker.openings')!;
    expect(openings.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [
        {
          'voxroute.provider': 'a',
          'voxroute.capability': 'stt',
          'gen_ai.operation.name': 'speech_to_text',
          'voxroute.breaker.reason': 'consecutive-failures',
        },
        1,
      ],
    ]);
  });

  it('records time to first chunk per provider and capability, and counts fallbacks, from a real router', async () => {
    const a = await startMockServer({
      provider: createOpenAiCompatibleMock({ script: { failTimes: 9, failStatus: 503 } }),
    });
    const b = await startMockServer({ provider: createOpenAiCompatibleMock() });
    const router = createRouter({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${a.url}/v1`,
          apiKey: 'sk-secret-1',
          chat: { models: { m: 'x' } },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: `${b.url}/v1`,
          apiKey: 'sk-secret-1',
          chat: { models: { m: 'y' } },
        },
      },
      routes: { talk: { capability: 'chat', providers: ['a', 'b'], strategy: 'priority' } },
    });
    const ttfcs: number[] = [];
    router.on('first-chunk', (e) => ttfcs.push(e.timeToFirstChunkMs));
    const stop = await instrumentRouter(router);
    try {
      for (let i = 0; i < 3; i++) {
        for await (const _ of router.chat({
          route: 'talk',
          messages: [{ role: 'user', content: 'hi' }],
          model: 'm',
        })) {
          // drain
        }
      }
      const m = await collect();
      const ttfc = m.get('voxroute.time_to_first_chunk')!;
      expect(ttfc.dataPointType).toBe(DataPointType.HISTOGRAM);
      expect(ttfc.descriptor.unit).toBe('ms');
      expect(ttfc.dataPoints).toHaveLength(1);
      const point = ttfc.dataPoints[0]!;
      expect(point.attributes).toEqual({
        'voxroute.provider': 'b',
        'voxroute.capability': 'chat',
        'gen_ai.operation.name': 'chat',
        'voxroute.route': 'talk',
      });
      const h = point.value as Histogram;
      expect(h.count).toBe(3);
      expect(h.sum).toBeCloseTo(
        ttfcs.reduce((s, x) => s + x, 0),
        6,
      );
      expect(h.buckets.boundaries).toEqual(TTFC_BUCKETS_MS);
      const fallbacks = m.get('voxroute.fallbacks')!;
      expect(fallbacks.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
        [
          {
            'voxroute.provider': 'a',
            'voxroute.capability': 'chat',
            'gen_ai.operation.name': 'chat',
            'voxroute.route': 'talk',
            'voxroute.next': 'b',
            'voxroute.partial_output': false,
            'error.type': 'ProviderError',
          },
          3,
        ],
      ]);
      expect(JSON.stringify([...m.values()])).not.toContain('sk-secret-1');
    } finally {
      stop();
      await router.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
