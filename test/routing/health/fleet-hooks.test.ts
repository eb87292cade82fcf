import { describe, expect, it } from 'vitest';
import { HealthRegistry, type HealthStateChange } from '../../../src/routing/health/health-registry.js';
import { StepClock } from './helpers.js';

describe('HealthRegistry.openUntil and the probe gate (fleet-shared health hooks)', () => {
  it('openUntil opens a closed breaker until the given time with reason fleet, then it goes half-open', () => {
    const clock = new StepClock();
    const health = new HealthRegistry({ clock });
    const changes: HealthStateChange[] = [];
    health.onStateChange((c) => changes.push(c));
    health.openUntil('ec2', 'tts', clock.now() + 3_000);
    expect(health.get('ec2', 'tts').snapshot()).toMatchObject({
      state: 'open',
      reopenAt: 3_000,
      openReason: 'fleet',
      openings: 1,
    });
    expect(changes).toEqual([
      {
        provider: 'ec2',
        capability: 'tts',
        from: 'closed',
        to: 'open',
        reason: 'fleet',
        at: 0,
        cooldownMs: 3_000,
        reopenAt: 3_000,
      },
    ]);
    expect(health.allows('ec2', 'tts')).toBe(false);
    clock.t += 3_000;
    expect(health.get('ec2', 'tts').state()).toBe('half-open');
  });

  it('openUntil makes an open cooldown longer, never shorter, and ignores a time already past', () => {
    const clock = new StepClock();
    const health = new HealthRegistry({ clock });
    health.openUntil('ec2', 'tts', 5_000);
    health.openUntil('ec2', 'tts', 2_000);
    expect(health.get('ec2', 'tts').snapshot().reopenAt).toBe(5_000);
    health.openUntil('ec2', 'tts', 8_000);
    expect(health.get('ec2', 'tts').snapshot().reopenAt).toBe(8_000);
    health.openUntil('sonic', 'tts', 0);
    expect(health.get('sonic', 'tts').state()).toBe('closed');
  });

  it('a half-open breaker lets a probe go only when the gate says so; a closed one never asks', () => {
    const clock = new StepClock();
    const health = new HealthRegistry({ clock });
    const asked: string[] = [];
    let open = false;
    health.setProbeGate((provider, capability) => {
      asked.push(`${provider}/${capability}`);
      return open;
    });
    expect(health.get('sonic', 'tts').tryAcquire()).toBe(true);
    expect(asked).toEqual([]);
    health.openUntil('ec2', 'tts', 1_000);
    clock.t += 1_000;
    const breaker = health.get('ec2', 'tts');
    expect(breaker.allows()).toBe(false);
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.snapshot().probeInFlight).toBe(false);
    open = true;
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    expect(asked).toEqual(['ec2/tts', 'ec2/tts', 'ec2/tts']);
    health.setProbeGate(undefined);
    breaker.release();
    expect(breaker.tryAcquire()).toBe(true);
  });
});
