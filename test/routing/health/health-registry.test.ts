import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors/config-error.js';
import { CircuitBreaker } from '../../../src/routing/health/circuit-breaker.js';
import { HealthRegistry, type HealthStateChange } from '../../../src/routing/health/health-registry.js';
import { fail, StepClock } from './helpers.js';

function registry() {
  const clock = new StepClock();
  const health = new HealthRegistry({ clock, random: () => 0.5, failureThreshold: 2 });
  const changes: HealthStateChange[] = [];
  health.onStateChange((c) => changes.push(c));
  return { clock, health, changes };
}

describe('HealthRegistry', () => {
  it('creates one breaker per (provider, capability) lazily, with the shared options', () => {
    const { health } = registry();
    expect(health.peek('ec2', 'tts')).toBe(undefined);
    expect(health.snapshot()).toEqual([]);
    const tts = health.get('ec2', 'tts');
    expect(tts).toBeInstanceOf(CircuitBreaker);
    expect(health.get('ec2', 'tts')).toBe(tts);
    expect(health.peek('ec2', 'tts')).toBe(tts);
    const chat = health.get('ec2', 'chat');
    expect(chat).not.toBe(tts);
    fail(tts, 2); // failureThreshold 2 is shared
    expect([tts.state(), chat.state()]).toEqual(['open', 'closed']);
  });

  it('allows() without a breaker is true and creates none', () => {
    const { health } = registry();
    expect(health.allows('sonic', 'tts')).toBe(true);
    expect(health.peek('sonic', 'tts')).toBe(undefined);
    fail(health.get('sonic', 'tts'), 2);
    expect(health.allows('sonic', 'tts')).toBe(false);
    expect(health.allows('sonic', 'tts', 1000)).toBe(true);
  });

  it('reports every breaker change with its provider and capability, in order', () => {
    const { clock, health, changes } = registry();
    fail(health.get('a', 'tts'), 2);
    clock.t = 10;
    health.get('b', 'chat').recordFailure({ kind: 'auth' });
    clock.t = 1000;
    expect(health.get('a', 'tts').tryAcquire()).toBe(true);
    health.get('a', 'tts').recordSuccess();
    expect(changes).toEqual([
      {
        provider: 'a',
        capability: 'tts',
        from: 'closed',
        to: 'open',
        reason: 'consecutive-failures',
        at: 0,
        cooldownMs: 1000,
        reopenAt: 1000,
      },
      {
        provider: 'b',
        capability: 'chat',
        from: 'closed',
        to: 'open',
        reason: 'auth',
        at: 10,
        cooldownMs: 300_000,
        reopenAt: 300_010,
      },
      {
        provider: 'a',
        capability: 'tts',
        from: 'open',
        to: 'half-open',
        reason: 'cooldown-elapsed',
        at: 1000,
      },
      {
        provider: 'a',
        capability: 'tts',
        from: 'half-open',
        to: 'closed',
        reason: 'probe-succeeded',
        at: 1000,
      },
    ]);
  });

  it('snapshot lists every breaker in creation order', () => {
    const { clock, health } = registry();
    health.get('a', 'stt').recordSuccess();
    health.get('b', 'tts').recordFailure({ kind: 'auth' });
    clock.t = 5;
    expect(health.snapshot()).toEqual([
      {
        provider: 'a',
        capability: 'stt',
        state: 'closed',
        consecutiveFailures: 0,
        calls: 1,
        errorRate: 0,
        openedAt: undefined,
        reopenAt: undefined,
        openReason: undefined,
        openings: 0,
        misconfigured: false,
        probeInFlight: false,
      },
      {
        provider: 'b',
        capability: 'tts',
        state: 'open',
        consecutiveFailures: 1,
        calls: 1,
        errorRate: 1,
        openedAt: 0,
        reopenAt: 300_000,
        openReason: 'auth',
        openings: 1,
        misconfigured: true,
        probeInFlight: false,
      },
    ]);
    expect(health.snapshot(300_000).map((s) => s.state)).toEqual(['closed', 'half-open']);
  });

  it('unsubscribe and clear', () => {
    const { health, changes } = registry();
    const seen: string[] = [];
    const off = health.onStateChange((c) => seen.push(c.provider));
    fail(health.get('a', 'tts'), 2);
    off();
    fail(health.get('b', 'tts'), 2);
    expect(seen).toEqual(['a']);
    expect(changes.map((c) => c.provider)).toEqual(['a', 'b']);
    health.clear();
    expect(health.snapshot()).toEqual([]);
    expect(health.get('a', 'tts').state()).toBe('closed');
  });

  it('a throwing listener goes to onListenerError', () => {
    const errors: unknown[] = [];
    const health = new HealthRegistry({ clock: new StepClock(), onListenerError: (e) => errors.push(e) });
    const boom = new Error('boom');
    health.onStateChange(() => {
      throw boom;
    });
    const seen: string[] = [];
    health.onStateChange((c) => seen.push(c.to));
    fail(health.get('a', 'chat'), 5);
    expect(errors).toEqual([boom]);
    expect(seen).toEqual(['open']);
  });

  it('checks the options when constructed', () => {
    expect(() => new HealthRegistry({ minCalls: 0 })).toThrow(ConfigError);
  });
});
