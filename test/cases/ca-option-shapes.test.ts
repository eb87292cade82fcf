/**
 * `createRouter(config, { ca })` takes CA certificates as `node:tls` does: a PEM string, the
 * bytes of a PEM file (a Buffer from readFileSync, any Uint8Array), or an array of those. Each
 * reaches the https server; anything else is a TypeError naming `ca` from createRouter, before
 * any provider is contacted (never a failure at call time charged to the provider). The https
 * server here speaks the OpenAI speech wire on its own (node:https, a fresh self-signed
 * certificate).
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, type RouterConfig, type RouterOptions } from '../../src/index.js';
import { makeLoopbackCertificate } from '../../src/testing/tls-certificate.js';
import { concat, pcmSignal } from './wire/servers.js';

const AUDIO = pcmSignal(2400, 24_000, 5);
let pem = '';
let url = '';
let hits = 0;
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const { key, cert } = await makeLoopbackCertificate('127.0.0.1');
  pem = cert;
  const server = createServer({ key, cert }, (req, res) => {
    hits++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': String(AUDIO.byteLength) });
      res.end(AUDIO);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(() => close());

const config = (): RouterConfig => ({
  providers: { gpu: { kind: 'openai-compatible', baseUrl: url, tts: { voices: { agent: 'v' } } } },
  routes: { tts: { providers: ['gpu'] } },
});

describe('createRouter({ ca }) in every shape node:tls takes', () => {
  const shapes: Array<[string, () => RouterOptions['ca']]> = [
    ['a PEM string', () => pem],
    ['a Buffer (readFileSync)', () => Buffer.from(pem)],
    ['a plain Uint8Array', () => new TextEncoder().encode(pem)],
    ['an array of a string and a Buffer', () => [pem, Buffer.from(pem)]],
  ];
  for (const [name, ca] of shapes) {
    it(`${name}: the https call succeeds; nothing charged`, async () => {
      const r = createRouter(config(), { ca: ca() });
      try {
        const chunks: Uint8Array[] = [];
        for await (const chunk of r.tts({ text: 'Hello there.', voice: 'agent' })) chunks.push(chunk.data);
        expect(concat(chunks)).toEqual(AUDIO);
        expect(r.stats().providers.map((s) => [s.errors, s.samples])).toEqual([[0, 1]]);
      } finally {
        await r.close();
      }
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
      const before = hits;
      expect(() => createRouter(config(), { ca: ca as string })).toThrow(
        new TypeError(
          `createRouter: options.ca must be PEM certificates: a string, a Buffer or Uint8Array (e.g. readFileSync('ca.pem')), or an array of those; got ${got}`,
        ),
      );
      expect(hits).toBe(before);
    });
  }
});
