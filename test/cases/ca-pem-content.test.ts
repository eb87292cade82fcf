/**
 * A `ca` of the right shape but not holding valid PEM certificates (text that is no PEM, a DER
 * file, a private key, a truncated or corrupt block) is refused where it is given: createRouter
 * throws a TypeError naming the field (`options.ca`, `options.ca[1]`) and the certificate, before
 * any provider is contacted, without a byte of the value in the message. node:tls itself accepts
 * such a `ca` without a word (tls.createSecureContext does not throw on Node 20), so before the
 * check the mistake showed as a TLS failure at the first call, charged to the provider. The
 * transports that take `ca` (HTTP, WebSocket) refuse it when they are created too. The https
 * server speaks the OpenAI speech wire on its own (node:https, a fresh self-signed certificate).
 */
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/index.js';
import { createHttpTransport } from '../../src/transport/index.js';
import { createWebSocketTransport } from '../../src/transport/websocket.js';
import { httpsSpeechServer } from './wire/https-speech.js';

const SECRET = 'sk-live-9f8e7d6c5b4a';
const server = httpsSpeechServer();

/** The base64 body of a PEM block, as its lines. */
const bodyOf = (block: string) =>
  block.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
const der = () => Buffer.from(bodyOf(server.pem).join(''), 'base64');
const PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI${SECRET}\n-----END PRIVATE KEY-----\n`;
const HINT = 'node:tls takes PEM text: -----BEGIN CERTIFICATE----- blocks, not DER';

describe('a ca that holds no valid PEM certificate', () => {
  const invalid: Array<[string, () => unknown, string]> = [
    [
      'text that is no PEM (a key given by mistake)',
      () => SECRET,
      `createRouter: options.ca holds no PEM certificate (${HINT})`,
    ],
    ['an empty string', () => '', `createRouter: options.ca holds no PEM certificate (${HINT})`],
    ['the bytes of a DER file', der, `createRouter: options.ca holds no PEM certificate (${HINT})`],
    ['a private key', () => PRIVATE_KEY, `createRouter: options.ca holds no PEM certificate (${HINT})`],
    [
      'a block with bad base64',
      () => `-----BEGIN CERTIFICATE-----\n${SECRET}!!\n-----END CERTIFICATE-----\n`,
      'createRouter: options.ca: PEM certificate 1 of 1 does not parse as an X.509 certificate (corrupt, or not a certificate)',
    ],
    [
      'a block cut short (no END line)',
      () => server.pem.slice(0, 200),
      'createRouter: options.ca: PEM certificate 1 of 1 has no END line (a cut file?)',
    ],
    [
      'a good certificate, then one with lines missing',
      () =>
        `${server.pem}-----BEGIN CERTIFICATE-----\n${bodyOf(server.pem).slice(2).join('\n')}\n-----END CERTIFICATE-----\n`,
      'createRouter: options.ca: PEM certificate 2 of 2 does not parse as an X.509 certificate (corrupt, or not a certificate)',
    ],
    [
      'an array whose second entry is no PEM',
      () => [server.pem, Buffer.from(SECRET)],
      `createRouter: options.ca[1] holds no PEM certificate (${HINT})`,
    ],
  ];
  for (const [name, ca, message] of invalid) {
    it(`${name}: TypeError naming the field at createRouter, no byte of it echoed, no request sent`, () => {
      const before = server.hits;
      let thrown: unknown;
      try {
        createRouter(server.config(), { ca: ca() as string });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toEqual(new TypeError(message));
      expect((thrown as Error).message).not.toContain(SECRET);
      expect((thrown as Error).message).not.toContain(bodyOf(server.pem)[1]);
      // A block that does not parse carries OpenSSL's error as its cause (a code, no bytes).
      if (message.includes('does not parse'))
        expect((thrown as Error).cause).toMatchObject({ code: expect.stringMatching(/^ERR_OSSL_/) });
      expect(String((thrown as Error).cause)).not.toContain(SECRET);
      expect(server.hits).toBe(before);
    });
  }

  it('the transports that take ca refuse it when created (HTTP and WebSocket)', () => {
    expect(() => createHttpTransport({ ca: SECRET })).toThrow(
      new TypeError(`ca holds no PEM certificate (${HINT})`),
    );
    expect(() => createWebSocketTransport({ ca: [server.pem, SECRET] })).toThrow(
      new TypeError(`ca[1] holds no PEM certificate (${HINT})`),
    );
  });
});

describe('PEM as CA bundles are written still works', () => {
  const valid: Array<[string, () => string | Uint8Array]> = [
    [
      'a bundle with comment lines between blocks',
      () => `# Loopback mock\n${server.pem}\n# Other CA\n${rootCertificates[0]}\n`,
    ],
    ['a Windows file (CRLF lines)', () => Buffer.from(server.pem.replace(/\n/g, '\r\n'))],
    [
      'a TRUSTED CERTIFICATE block',
      () => server.pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '-----$1 TRUSTED CERTIFICATE-----'),
    ],
  ];
  for (const [name, ca] of valid) {
    it(`${name}: accepted, the https call succeeds, nothing charged`, async () => {
      await server.expectSpoken(createRouter(server.config(), { ca: ca() }));
    });
  }
});
