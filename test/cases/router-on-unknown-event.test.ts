/**
 * router.on() checks its arguments as strictly as the config: an unknown event name (a
 * JavaScript caller's typo, whose listener would never fire) or a listener that is not a
 * function is a TypeError naming it and listing the event names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter, parseConfig } from '../../src/index.js';

const router = createRouter(
  parseConfig({
    providers: {
      a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
    },
    routes: { chat: { providers: ['a'] } },
  }),
);
afterAll(() => router.close());

const EVENTS = 'the events are attempt, first-chunk, fallback, hedge, error, breaker, fleet';
const on = router.on as (event: unknown, listener: unknown) => () => void;

describe('router.on rejects what would never fire', () => {
  it.each<[string, unknown, unknown, string]>([
    [
      'a misspelt event',
      'fallbacks',
      () => {},
      `router.on: unknown event 'fallbacks' (did you mean 'fallback'?); ${EVENTS}`,
    ],
    ['an event of another library', 'data', () => {}, `router.on: unknown event 'data'; ${EVENTS}`],
    ['an event name that is not a string', 5, () => {}, `router.on: unknown event number; ${EVENTS}`],
    [
      'a listener that is a number',
      'fallback',
      5,
      "router.on: the listener of 'fallback' must be a function, got number",
    ],
    [
      'no listener',
      'error',
      undefined,
      "router.on: the listener of 'error' must be a function, got undefined",
    ],
  ])('%s', (_label, event, listener, message) => {
    expect(() => on(event, listener)).toThrow(new TypeError(message));
    let thrown: unknown;
    try {
      on(event, listener);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
  });

  it('takes every known event and returns its unsubscribe function', () => {
    for (const name of [
      'attempt',
      'first-chunk',
      'fallback',
      'hedge',
      'error',
      'breaker',
      'fleet',
    ] as const) {
      expect(typeof router.on(name, () => {})).toBe('function');
    }
  });
});
