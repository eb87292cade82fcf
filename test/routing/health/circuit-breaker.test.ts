import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors/config-error.js';
import { CircuitBreaker } from '../../../src/routing/health/circuit-breaker.js';
import { BREAKER_DEFAULTS } from '../../../src/routing/health/options.js';
import type { BreakerStateChange } from '../../../src/routing/health/types.js';
import { fail, StepClock, setup } from './helpers.js';

describe('CircuitBreaker: closed -> open', () => {
  it('opens at the 5th consecutive failure and not at the 4th', () => {
    const { clock, breaker, changes } = setup();
    for (let i = 0; i < 4; i++) {
      clock.t = i * 10;
      breaker.recordFailure();
    }
    expect(breaker.state()).toBe('closed');
    expect(breaker.allows()).toBe(true);
    expect(breaker.snapshot()).toEqual({
      state: 'closed',
      consecutiveFailures: 4,
      calls: 4,
      errorRate: 1,
      openedAt: undefined,
      reopenAt: undefined,
      openReason: undefined,
      openings: 0,
      misconfigured: false,
      probeInFlight: false,
    });
    expect(changes).toEqual([]);
    clock.t = 40;
    breaker.recordFailure();
    expect(breaker.state()).toBe('open');
    expect(breaker.allows()).toBe(false);
    expect(breaker.tryAcquire()).toBe(false);
    expect(changes).toEqual([
      {
        from: 'closed',
        to: 'open',
        reason: 'consecutive-failures',
        at: 40,
        cooldownMs: 1000,
        reopenAt: 1040,
      },
    ]);
  });

  it('a success resets the consecutive count', () => {
    const { breaker } = setup();
    fail(breaker, 4);
    breaker.recordSuccess();
    fail(breaker, 4);
    expect(breaker.snapshot().consecutiveFailures).toBe(4);
    expect(breaker.state()).toBe('closed');
    breaker.recordFailure();
    expect(breaker.state()).toBe('open');
  });

  it('honours a custom failureThreshold', () => {
    const { breaker } = setup({ failureThreshold: 2 });
    fail(breaker, 1);
    expect(breaker.state()).toBe('closed');
    fail(breaker, 1);
    expect(breaker.state()).toBe('open');
  });

  it('opens on an error rate >= 0.5 only once the window holds 10 calls, checked at a failure', () => {
    const { breaker, changes } = setup();
    // F S F S F S F S F: 9 calls, 5 failures (rate 0.56), below minCalls
    for (let i = 0; i < 4; i++) {
      breaker.recordFailure();
      breaker.recordSuccess();
    }
    breaker.recordFailure();
    expect(breaker.state()).toBe('closed');
    breaker.recordSuccess(); // 10 calls, rate 0.5: a success never opens it
    expect(breaker.state()).toBe('closed');
    expect(breaker.snapshot()).toMatchObject({ calls: 10, errorRate: 0.5, consecutiveFailures: 0 });
    breaker.recordFailure(); // 11 calls, 6 failures
    expect(breaker.state()).toBe('open');
    expect(breaker.snapshot()).toMatchObject({ calls: 11, errorRate: 6 / 11, consecutiveFailures: 1 });
    expect(changes.map((c) => c.reason)).toEqual(['error-rate']);
  });

  it('a rate under the threshold never opens it; the window keeps the last 20 calls', () => {
    const { breaker } = setup();
    for (let i = 0; i < 10; i++) {
      breaker.recordFailure();
      breaker.recordSuccess();
      breaker.recordSuccess();
    }
    expect(breaker.state()).toBe('closed');
    expect(breaker.snapshot()).toMatchObject({ calls: 20, errorRate: 6 / 20 }); // F at calls 13, 16, 19, 22, 25, 28;
  });

  it('only the last 20 calls count: opens at the 10th failure of F/S after 20 successes, not the 9th', () => {
    const { breaker } = setup();
    for (let i = 0; i < 20; i++) breaker.recordSuccess();
    for (let i = 0; i < 8; i++) {
      breaker.recordFailure();
      breaker.recordSuccess();
    }
    breaker.recordFailure(); // window: 3 S + 8 F/S pairs + F = 9 F of 20
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', calls: 20, errorRate: 9 / 20 });
    breaker.recordSuccess();
    breaker.recordFailure(); // window: 1 S + 9 pairs + F = 10 F of 20
    expect(breaker.snapshot()).toMatchObject({ state: 'open', openReason: 'error-rate', errorRate: 0.5 });
  });

  it('calls older than 30 s drop out of the error-rate window', () => {
    const run = (secondBatchAt: number) => {
      const { clock, breaker } = setup();
      for (let i = 0; i < 4; i++) {
        breaker.recordFailure();
        breaker.recordSuccess();
      }
      clock.t = secondBatchAt;
      breaker.recordFailure();
      breaker.recordFailure();
      return breaker.snapshot();
    };
    // within 30 s: 10 calls, 6 failures -> open
    expect(run(30_000)).toMatchObject({ state: 'open', openReason: 'error-rate', calls: 10 });
    // 30 s and 1 ms later the first 8 calls are gone: 2 calls, below minCalls
    expect(run(30_001)).toMatchObject({ state: 'closed', calls: 2, errorRate: 1, consecutiveFailures: 2 });
  });

  it('connection refused counts like any other failure', async () => {
    const { mapWireError } = await import('../../../src/transport/network-error.js');
    const { breakerFailureOf } = await import('../../../src/routing/health/failure-of-error.js');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = mapWireError(refused, { provider: 'ec2', stage: 'request' });
    expect(breakerFailureOf(error)).toEqual({ kind: 'failure' });
    const { breaker } = setup();
    for (let i = 0; i < 5; i++) breaker.recordFailure(breakerFailureOf(error));
    expect(breaker.snapshot()).toMatchObject({ state: 'open', openReason: 'consecutive-failures' });
  });
});

describe('CircuitBreaker: cooldowns', () => {
  /** Opens the breaker, then fails each probe; returns the cooldown of every opening. */
  function cooldowns(random: () => number, openings: number): number[] {
    const { clock, breaker, changes } = setup({ random });
    fail(breaker, 5);
    for (let i = 1; i < openings; i++) {
      clock.t = breaker.snapshot().reopenAt!;
      expect(breaker.tryAcquire()).toBe(true);
      breaker.recordFailure();
    }
    return changes.filter((c) => c.to === 'open').map((c) => c.cooldownMs!);
  }

  it('grows 1 s, 2 s, 4 s ... and caps at 60 s', () => {
    expect(cooldowns(() => 0.5, 9)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('jitter bounds: -20% at random 0, +20% as random tends to 1', () => {
    expect(cooldowns(() => 0, 8)).toEqual([800, 1600, 3200, 6400, 12800, 25600, 48000, 48000]);
    expect(cooldowns(() => 1 - 2 ** -40, 8)).toEqual([1200, 2400, 4800, 9600, 19200, 38400, 72000, 72000]);
  });

  it('stays open until the jittered cooldown ends, then is half-open', () => {
    const { clock, breaker } = setup({ random: () => 0 });
    clock.t = 100;
    fail(breaker, 5);
    clock.t = 899;
    expect(breaker.state()).toBe('open');
    expect(breaker.allows()).toBe(false);
    clock.t = 900;
    expect(breaker.state()).toBe('half-open');
  });

  it('uses the configured base, multiplier and cap', () => {
    const { clock, breaker, changes } = setup({
      baseCooldownMs: 250,
      cooldownMultiplier: 4,
      maxCooldownMs: 5000,
    });
    fail(breaker, 5);
    for (let i = 0; i < 3; i++) {
      clock.t = breaker.snapshot().reopenAt!;
      breaker.tryAcquire();
      breaker.recordFailure();
    }
    expect(changes.filter((c) => c.to === 'open').map((c) => c.cooldownMs)).toEqual([250, 1000, 4000, 5000]);
  });
});

describe('CircuitBreaker: half-open probe', () => {
  function halfOpen() {
    const ctx = setup();
    fail(ctx.breaker, 5);
    ctx.clock.t = 1000;
    return ctx;
  }

  it('allows exactly one probe; a concurrent second caller is refused', () => {
    const { breaker } = halfOpen();
    expect(breaker.state()).toBe('half-open');
    expect(breaker.allows()).toBe(true);
    expect(breaker.allows()).toBe(true); // allows() takes nothing
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.allows()).toBe(false);
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.snapshot()).toMatchObject({
      state: 'half-open',
      probeInFlight: true,
      reopenAt: undefined,
    });
  });

  it('probe success closes the breaker and resets the cooldown growth', () => {
    const { clock, breaker, changes } = halfOpen();
    breaker.tryAcquire();
    clock.t = 1100;
    breaker.recordFailure(); // probe fails: second opening, 2 s
    clock.t = 3100;
    expect(breaker.tryAcquire()).toBe(true);
    clock.t = 3200;
    breaker.recordSuccess();
    expect(breaker.snapshot()).toEqual({
      state: 'closed',
      consecutiveFailures: 0,
      calls: 0,
      errorRate: 0,
      openedAt: undefined,
      reopenAt: undefined,
      openReason: undefined,
      openings: 0,
      misconfigured: false,
      probeInFlight: false,
    });
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(true); // closed: nothing is taken
    fail(breaker, 5);
    expect(changes.at(-1)).toEqual({
      from: 'closed',
      to: 'open',
      reason: 'consecutive-failures',
      at: 3200,
      cooldownMs: 1000,
      reopenAt: 4200,
    });
  });

  it('probe failure reopens with the next, longer cooldown', () => {
    const { clock, breaker, changes } = halfOpen();
    breaker.tryAcquire();
    clock.t = 1500;
    breaker.recordFailure();
    expect(changes.at(-1)).toEqual({
      from: 'half-open',
      to: 'open',
      reason: 'probe-failed',
      at: 1500,
      cooldownMs: 2000,
      reopenAt: 3500,
    });
    expect(breaker.snapshot()).toMatchObject({
      state: 'open',
      openings: 2,
      openedAt: 1500,
      reopenAt: 3500,
      consecutiveFailures: 6,
      probeInFlight: false,
    });
  });

  it('release() of a cancelled probe frees the slot without charging anything', () => {
    const { breaker } = halfOpen();
    expect(breaker.tryAcquire()).toBe(true);
    breaker.release();
    expect(breaker.allows()).toBe(true);
    expect(breaker.snapshot()).toMatchObject({ state: 'half-open', probeInFlight: false, openings: 1 });
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
  });

  it("a 'cancelled' failure is the same as release()", () => {
    const { breaker, changes } = halfOpen();
    breaker.tryAcquire();
    breaker.recordFailure({ kind: 'cancelled', retryAfterMs: 90_000 });
    expect(breaker.state()).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(changes.map((c) => c.to)).toEqual(['open', 'half-open']);
  });

  it('release() when closed or open changes nothing', () => {
    const { breaker } = setup();
    fail(breaker, 3);
    breaker.release();
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 3 });
    fail(breaker, 2);
    breaker.release();
    expect(breaker.snapshot()).toMatchObject({ state: 'open', reopenAt: 1000 });
  });

  it('a probe slot held for probeTimeoutMs (30 s) is freed as lost', () => {
    const { clock, breaker } = halfOpen();
    expect(breaker.tryAcquire()).toBe(true);
    clock.t = 1000 + 29_999;
    expect(breaker.tryAcquire()).toBe(false);
    clock.t = 1000 + 30_000;
    expect(breaker.allows()).toBe(true);
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
  });

  it('outcomes recorded while open (calls started before it opened) change nothing', () => {
    const { clock, breaker } = setup();
    fail(breaker, 5);
    clock.t = 500;
    breaker.recordSuccess();
    breaker.recordFailure();
    expect(breaker.snapshot()).toMatchObject({
      state: 'open',
      consecutiveFailures: 5,
      reopenAt: 1000,
      openings: 1,
    });
  });
});

describe('CircuitBreaker: Retry-After', () => {
  it('a Retry-After of 30 s opens it for 30 s; a later shorter one does not shorten it', () => {
    const { clock, breaker, changes } = setup();
    clock.t = 1000;
    breaker.recordFailure({ retryAfterMs: 30_000 });
    expect(changes).toEqual([
      { from: 'closed', to: 'open', reason: 'retry-after', at: 1000, cooldownMs: 30_000, reopenAt: 31_000 },
    ]);
    clock.t = 5000;
    breaker.recordFailure({ retryAfterMs: 10_000 });
    expect(breaker.snapshot().reopenAt).toBe(31_000);
    clock.t = 30_999;
    expect(breaker.state()).toBe('open');
    clock.t = 31_000;
    expect(breaker.state()).toBe('half-open');
  });

  it('a later longer Retry-After lengthens the cooldown', () => {
    const { clock, breaker } = setup();
    breaker.recordFailure({ retryAfterMs: 30_000 });
    clock.t = 10_000;
    breaker.recordFailure({ retryAfterMs: 60_000 });
    expect(breaker.snapshot()).toMatchObject({ state: 'open', openedAt: 0, reopenAt: 70_000 });
  });

  it('is capped at maxRetryAfterMs (10 min by default)', () => {
    const { breaker, changes } = setup();
    breaker.recordFailure({ retryAfterMs: 3_600_000 });
    expect(changes[0]?.cooldownMs).toBe(600_000);
    const custom = setup({ maxRetryAfterMs: 120_000 });
    custom.breaker.recordFailure({ retryAfterMs: 3_600_000 });
    expect(custom.changes[0]?.cooldownMs).toBe(120_000);
  });

  it('is a minimum: the grown cooldown wins when longer, the Retry-After when longer', () => {
    const { clock, breaker, changes } = setup();
    breaker.recordFailure({ retryAfterMs: 500 }); // opening 1: max(1000, 500)
    clock.t = 1000;
    breaker.tryAcquire();
    breaker.recordFailure({ retryAfterMs: 45_000 }); // opening 2: max(2000, 45000)
    expect(changes.filter((c) => c.to === 'open').map((c) => [c.reason, c.cooldownMs])).toEqual([
      ['retry-after', 1000],
      ['probe-failed', 45_000],
    ]);
  });

  it('a zero Retry-After does not open it', () => {
    const { breaker } = setup();
    breaker.recordFailure({ retryAfterMs: 0 });
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  });

  it('respectRetryAfter: false does not open at once but keeps Retry-After as the minimum cooldown', () => {
    const { breaker, changes } = setup({ respectRetryAfter: false });
    for (let i = 0; i < 4; i++) breaker.recordFailure({ retryAfterMs: 30_000 });
    expect(breaker.state()).toBe('closed');
    breaker.recordFailure({ retryAfterMs: 30_000 });
    expect(changes).toEqual([
      {
        from: 'closed',
        to: 'open',
        reason: 'consecutive-failures',
        at: 0,
        cooldownMs: 30_000,
        reopenAt: 30_000,
      },
    ]);
  });
});

describe('CircuitBreaker: auth / misconfiguration', () => {
  it('C18: an auth failure opens it at once for 5 min and flags it misconfigured', () => {
    const { clock, breaker, changes } = setup();
    clock.t = 200;
    breaker.recordFailure({ kind: 'auth' });
    expect(changes).toEqual([
      { from: 'closed', to: 'open', reason: 'auth', at: 200, cooldownMs: 300_000, reopenAt: 300_200 },
    ]);
    expect(breaker.snapshot()).toMatchObject({ state: 'open', misconfigured: true, openReason: 'auth' });
    clock.t = 300_199;
    expect(breaker.allows()).toBe(false);
    clock.t = 300_200;
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.snapshot()).toMatchObject({ state: 'half-open', misconfigured: true });
    breaker.recordSuccess();
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', misconfigured: false });
  });

  it('{ auth: true } is shorthand for the auth kind; ignored and cancelled win over it', () => {
    const a = setup();
    a.breaker.recordFailure({ auth: true });
    expect(a.changes.map((c) => [c.reason, c.cooldownMs])).toEqual([['auth', 300_000]]);
    const b = setup();
    b.breaker.recordFailure({ kind: 'failure', auth: true });
    expect(b.breaker.snapshot()).toMatchObject({ state: 'open', misconfigured: true });
    const c = setup();
    c.breaker.recordFailure({ kind: 'ignored', auth: true });
    c.breaker.recordFailure({ kind: 'cancelled', auth: true });
    expect(c.breaker.snapshot()).toMatchObject({
      state: 'closed',
      consecutiveFailures: 0,
      misconfigured: false,
    });
  });

  it('the auth cooldown is configurable and not jittered', () => {
    const { breaker, changes } = setup({ authCooldownMs: 900_000, random: () => 0 });
    breaker.recordFailure({ kind: 'auth' });
    expect(changes[0]?.cooldownMs).toBe(900_000);
  });

  it('an auth failure of the probe reopens for the auth cooldown', () => {
    const { clock, breaker, changes } = setup();
    fail(breaker, 5);
    clock.t = 1000;
    breaker.tryAcquire();
    breaker.recordFailure({ kind: 'auth' });
    expect(changes.at(-1)).toEqual({
      from: 'half-open',
      to: 'open',
      reason: 'auth',
      at: 1000,
      cooldownMs: 300_000,
      reopenAt: 301_000,
    });
    expect(breaker.snapshot().misconfigured).toBe(true);
  });

  it('an auth failure arriving while open lengthens the cooldown and flags misconfigured', () => {
    const { clock, breaker, changes } = setup();
    fail(breaker, 5);
    clock.t = 400;
    breaker.recordFailure({ kind: 'auth' });
    expect(breaker.snapshot()).toMatchObject({
      state: 'open',
      misconfigured: true,
      openReason: 'auth',
      reopenAt: 300_400,
      openedAt: 0,
    });
    expect(changes.length).toBe(1);
  });
});

describe('CircuitBreaker: ignored failures', () => {
  it("'ignored' failures (reset of a reused idle socket) are not counted", () => {
    const { breaker } = setup();
    fail(breaker, 4);
    for (let i = 0; i < 10; i++) breaker.recordFailure({ kind: 'ignored', retryAfterMs: 30_000 });
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', consecutiveFailures: 4, calls: 4 });
    breaker.recordFailure();
    expect(breaker.state()).toBe('open');
  });

  it("an 'ignored' failure of the probe keeps its slot taken (the attempt goes on)", () => {
    const { clock, breaker } = setup();
    fail(breaker, 5);
    clock.t = 1000;
    breaker.tryAcquire();
    breaker.recordFailure({ kind: 'ignored' });
    expect(breaker.snapshot()).toMatchObject({ state: 'half-open', probeInFlight: true });
    expect(breaker.tryAcquire()).toBe(false);
  });
});

describe('CircuitBreaker: events', () => {
  it('reports state changes in order with reasons, noticing the cooldown end lazily', () => {
    const { clock, breaker, changes } = setup();
    fail(breaker, 5); // t=0, open until 1000
    clock.t = 1700; // the end of the cooldown is noticed late
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordFailure(); // reopen for 2 s
    clock.t = 4000;
    breaker.tryAcquire();
    clock.t = 4100;
    breaker.recordSuccess();
    clock.t = 5000;
    breaker.recordFailure({ kind: 'auth' });
    breaker.reset();
    expect(changes).toEqual<BreakerStateChange[]>([
      { from: 'closed', to: 'open', reason: 'consecutive-failures', at: 0, cooldownMs: 1000, reopenAt: 1000 },
      { from: 'open', to: 'half-open', reason: 'cooldown-elapsed', at: 1000 },
      { from: 'half-open', to: 'open', reason: 'probe-failed', at: 1700, cooldownMs: 2000, reopenAt: 3700 },
      { from: 'open', to: 'half-open', reason: 'cooldown-elapsed', at: 3700 },
      { from: 'half-open', to: 'closed', reason: 'probe-succeeded', at: 4100 },
      { from: 'closed', to: 'open', reason: 'auth', at: 5000, cooldownMs: 300_000, reopenAt: 305_000 },
      { from: 'open', to: 'closed', reason: 'reset', at: 5000 },
    ]);
    expect(breaker.snapshot()).toMatchObject({ state: 'closed', misconfigured: false, openings: 0 });
  });

  it('a success recorded after the cooldown ended closes it through half-open', () => {
    const { clock, breaker, changes } = setup();
    fail(breaker, 5);
    clock.t = 2000;
    breaker.recordSuccess();
    expect(changes.map((c) => [c.from, c.to, c.reason, c.at])).toEqual([
      ['closed', 'open', 'consecutive-failures', 0],
      ['open', 'half-open', 'cooldown-elapsed', 1000],
      ['half-open', 'closed', 'probe-succeeded', 2000],
    ]);
  });

  it('unsubscribing stops events; the same listener twice is two subscriptions', () => {
    const clock = new StepClock();
    const breaker = new CircuitBreaker({ clock, random: () => 0.5 });
    const seen: string[] = [];
    const listener = (c: BreakerStateChange) => seen.push(c.to);
    const off1 = breaker.onStateChange(listener);
    const off2 = breaker.onStateChange(listener);
    fail(breaker, 5);
    expect(seen).toEqual(['open', 'open']);
    off1();
    off1();
    clock.t = 1000;
    breaker.state();
    expect(seen).toEqual(['open', 'open', 'half-open']);
    off2();
    breaker.reset();
    expect(seen).toEqual(['open', 'open', 'half-open']);
  });

  it('a throwing listener is reported to onListenerError and the others still run', () => {
    const errors: unknown[] = [];
    const boom = new Error('listener failed');
    const { breaker, changes } = setup({ onListenerError: (e) => errors.push(e) });
    breaker.onStateChange(() => {
      throw boom;
    });
    const after: string[] = [];
    breaker.onStateChange((c) => after.push(c.reason));
    fail(breaker, 5);
    expect(errors).toEqual([boom]);
    expect(after).toEqual(['consecutive-failures']);
    expect(changes.length).toBe(1);
  });

  it('reset() of a closed breaker clears counters and emits nothing', () => {
    const { breaker, changes } = setup();
    fail(breaker, 4);
    breaker.reset();
    expect(breaker.snapshot()).toMatchObject({ consecutiveFailures: 0, calls: 0 });
    expect(changes).toEqual([]);
  });
});

describe('CircuitBreaker: options', () => {
  it('documents its defaults', () => {
    expect(BREAKER_DEFAULTS).toEqual({
      failureThreshold: 5,
      errorRateThreshold: 0.5,
      minCalls: 10,
      windowSize: 20,
      windowMs: 30_000,
      baseCooldownMs: 1000,
      cooldownMultiplier: 2,
      maxCooldownMs: 60_000,
      jitter: 0.2,
      respectRetryAfter: true,
      maxRetryAfterMs: 600_000,
      authCooldownMs: 300_000,
      probeTimeoutMs: 30_000,
    });
  });

  it('uses the system clock by default (state is computed from performance.now())', () => {
    const breaker = new CircuitBreaker({ baseCooldownMs: 60_000, maxCooldownMs: 60_000, jitter: 0 });
    const before = performance.now();
    fail(breaker, 5);
    const { openedAt, reopenAt } = breaker.snapshot();
    expect(openedAt).toBeGreaterThanOrEqual(before);
    expect(openedAt).toBeLessThanOrEqual(performance.now());
    expect(reopenAt! - openedAt!).toBeCloseTo(60_000, 6);
    expect(breaker.state(reopenAt!)).toBe('half-open');
  });

  it('rejects out-of-range options with a ConfigError naming each', () => {
    let caught: unknown;
    try {
      new CircuitBreaker({ failureThreshold: 0, windowSize: 5, jitter: 1, windowMs: Number.NaN });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    const issues = (caught as ConfigError).issues;
    expect(issues).toEqual([
      { path: ['failureThreshold'], message: 'must be an integer >= 1' },
      { path: ['windowSize'], message: 'must be an integer >= minCalls' },
      { path: ['windowMs'], message: 'must be a finite number of ms > 0' },
      { path: ['jitter'], message: 'must be in [0, 1)' },
    ]);
    expect(() => new CircuitBreaker({ baseCooldownMs: 5000, maxCooldownMs: 1000 })).toThrow(
      /maxCooldownMs: must be >= baseCooldownMs/,
    );
  });
});
