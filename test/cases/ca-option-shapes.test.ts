/**
 * `createRouter(config, { ca })` takes CA certificates as `node:tls` does: a PEM string, the
 * bytes of a PEM file (a Buffer from readFileSync, any Uint8Array), or an array of those. Each
 * reaches the https server; anything else is a TypeError naming `ca` from createRouter, before
 * any provider is contacted (never a failure at call time charged to the provider). The https
 * server here speaks the OpenAI speech wire on its own (node:https, a fresh self-signed
 * certificate).
 */
import { describe, expect, it } from 'vitest';
import { createRouter, type RouterOptions } from '../../src/index.js';
import { httpsSpeechServer } from './wire/https-speech.js';

const server = httpsSpeechServer();

describe('createRouter({ ca }) in every shape node:tls takes', () => {
  const shapes: Array<[string, () => RouterOptions['ca']]> = [
    ['a PEM string', () => server.pem],
    ['a Buffer (readFileSync)', () => Buffer.from(server.pem)],
    ['a plain Uint8Array', () => new TextEncoder().encode(server.pem)],
    ['an array of a string and a Buffer', () => [server.pem, Buffer.from(server.pem)]],
  ];
  for (const [name, ca] of shapes) {
    it(`${name}: the https call succeeds; nothing charged`, async () => {
      await server.expectSpoken(createRouter(server.config(), { ca: ca() }));
    });
  }

  const invalid: Array<[string, unknown, string]> = [
    ['a number', 42, 'number'],
    ['an object', { pem: 'x' }, 'an object (Object)'],
    ['an array holding a number', ['x', 7], 'an array holding number'],
    ['null', null, 'null'],
  ];
  for (const [name, ca, got] of invalid) {
    it(`${name}: TypeError naming ca at createRouter, no request sent`, () => {
      const before = server.hits;
      expect(() => createRouter(server.config(), { ca: ca as string })).toThrow(
        new TypeError(
          `createRouter: options.ca must be PEM certificates: a string, a Buffer or Uint8Array (e.g. readFileSync('ca.pem')), or an array of those; got ${got}`,
        ),
      );
      expect(server.hits).toBe(before);
    });
  }
});
