/**
 * A Redis server (or a proxy in front of one) that quotes the password it refused in its error
 * reply: the fleet's store errors reach `router.on('fleet')` events, `router.stats().fleet.lastError`
 * and the router's logger. They were cleaned of the password only where it stood exactly as
 * written in the URL, so an echo upper-cased, cut, base64- or percent-encoded, or a password
 * given in the URL's query (`?password=`, which ioredis takes) showed it. Store messages now go
 * through the same redaction as provider errors. The server here speaks RESP on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../src/index.js';
import { type RespServer, startRespServer } from './resp-server.js';

/** Reads as fake on purpose. */
const PASSWORD = 'fleet-pass-NOT-A-REAL-SECRET-7f3a9c';

let server: RespServer | undefined;
let router: Router | undefined;
afterEach(async () => {
  await router?.close();
  await server?.close();
  router = undefined;
  server = undefined;
});

/**
 * A router whose fleet store is a RESP server refusing the password with `-WRONGPASS <reply>`,
 * and the first fleet error it reports: the event's text, `lastError` and the logger's lines.
 */
async function firstStoreError(
  reply: string | ((url: string) => string),
  url: (host: string) => string,
): Promise<{ event: string; lastError: string | undefined; logged: string }> {
  let storeUrl = '';
  server = await startRespServer((args) =>
    args[0]?.toUpperCase() === 'HELLO' || args[0]?.toUpperCase() === 'AUTH'
      ? `-WRONGPASS ${typeof reply === 'string' ? reply : reply(storeUrl)}\r\n`
      : '+OK\r\n',
  );
  storeUrl = url(server.host);
  const logged: unknown[] = [];
  router = createRouter(
    {
      providers: {
        a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { m: 'm' } } },
      },
      routes: { chat: { providers: ['a'] } },
      health: { store: 'redis', url: storeUrl },
    },
    { logger: { warn: (...args: unknown[]) => logged.push(args) } },
  );
  const r = router;
  const event = await new Promise<string>((resolve) => {
    r.on('fleet', (e) => {
      if (e.type === 'error' && e.error !== undefined) resolve(e.error);
    });
  });
  // The client authenticated with the password: the server really had it to echo.
  expect(server.commands[0]).toContain(PASSWORD);
  return { event, lastError: r.stats().fleet?.lastError, logged: JSON.stringify(logged) };
}

const inUserInfo = (host: string) => `redis://:${PASSWORD}@${host}`;

describe('a store error reply quoting the password is redacted', () => {
  it.each([
    ['as written', `invalid password '${PASSWORD}'`, "invalid password '[redacted]'"],
    ['upper-cased', `invalid password ${PASSWORD.toUpperCase()}`, 'invalid password [redacted]'],
    ['cut', `invalid password ${PASSWORD.slice(0, 20)}...`, 'invalid password [redacted]...'],
    ['base64', `invalid password ${Buffer.from(PASSWORD).toString('base64')}`, 'invalid password [redacted]'],
    [
      'percent-encoded byte by byte',
      `invalid password ${[...Buffer.from(PASSWORD)].map((b) => `%${b.toString(16)}`).join('')}`,
      'invalid password [redacted]',
    ],
  ])('%s: not in the fleet event, lastError or a log line', async (_name, reply, shown) => {
    const { event, lastError, logged } = await firstStoreError(reply, inUserInfo);
    expect(event).toBe(`WRONGPASS ${shown}`);
    expect(lastError).toBe(event);
    for (const seen of [event, lastError ?? '', logged]) {
      expect(seen.toLowerCase()).not.toContain(PASSWORD.slice(0, 12).toLowerCase());
      expect(seen).not.toContain(Buffer.from(PASSWORD).toString('base64').slice(0, 12));
    }
  });

  it('a password given in the URL query (?password=) is redacted too', async () => {
    const { event, lastError } = await firstStoreError(
      `invalid password '${PASSWORD}'`,
      (host) => `redis://${host}/?password=${PASSWORD}`,
    );
    expect(event).toBe("WRONGPASS invalid password '[redacted]'");
    expect(lastError).toBe(event);
  });

  it('the store URL itself is replaced by <redis url>', async () => {
    const { event } = await firstStoreError((url) => `cannot use ${url} now`, inUserInfo);
    expect(event).toBe('WRONGPASS cannot use <redis url> now');
  });

  it('a reply without the password is shown as it came', async () => {
    const { event } = await firstStoreError(
      'invalid username-password pair or user is disabled.',
      inUserInfo,
    );
    expect(event).toBe('WRONGPASS invalid username-password pair or user is disabled.');
  });
});
