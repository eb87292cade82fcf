/**
 * An https server for the `ca` tests: a fresh self-signed certificate, every request answered
 * with the same 0.1 s of PCM as the OpenAI speech wire answers it (node:https, none of our
 * mocks), started in beforeAll and closed in afterAll of the file that calls it.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Router, RouterConfig } from '../../../src/index.js';
import { makeLoopbackCertificate } from '../../../src/testing/tls-certificate.js';
import { concat, pcmSignal } from './servers.js';

/** What {@link httpsSpeechServer} gives: its certificate, requests counted, a config over it. */
export interface HttpsSpeech {
  /** The server's certificate (PEM), to trust as `ca`. */
  readonly pem: string;
  /** Requests received so far. */
  readonly hits: number;
  /** One OpenAI-compatible provider `gpu` at the server (voice `agent`), on the `tts` route. */
  config(): RouterConfig;
  /** Asserts that one tts() call through `r` gets the whole audio and charges nothing; closes `r`. */
  expectSpoken(r: Router): Promise<void>;
}

const AUDIO = pcmSignal(2400, 24_000, 5);

export function httpsSpeechServer(): HttpsSpeech {
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
  return {
    get pem() {
      return pem;
    },
    get hits() {
      return hits;
    },
    config: () => ({
      providers: { gpu: { kind: 'openai-compatible', baseUrl: url, tts: { voices: { agent: 'v' } } } },
      routes: { tts: { providers: ['gpu'] } },
    }),
    async expectSpoken(r) {
      try {
        const chunks: Uint8Array[] = [];
        for await (const chunk of r.tts({ text: 'Hello there.', voice: 'agent' })) chunks.push(chunk.data);
        expect(concat(chunks)).toEqual(AUDIO);
        expect(r.stats().providers.map((s) => [s.errors, s.samples])).toEqual([[0, 1]]);
      } finally {
        await r.close();
      }
    },
  };
}
