/**
 * C25 through a fetch of the caller's (`createRouter(config, { fetch })`): voxroute cannot turn
 * off the timeouts of the dispatcher behind it, so a `headersTimeout` or `bodyTimeout` below the
 * route's deadlines cuts the call first. The TimeoutError then says so (the HTTP client's own
 * timeout, its code and option), with `timeoutMs` 0 and no `setting`; it used to read "No
 * response headers within 0 ms", or name the route's idleTimeoutMs and its 5000 ms although the
 * client's 500 ms bodyTimeout fired. The next provider serves as for any timeout. The server is
 * node:http on loopback; the fetch is undici's with an Agent of the test's.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AllProvidersFailedError, TimeoutError } from '../../src/index.js';
import { answerChat, chatChunk, drain, httpServer, readBody, router, sseFrames } from './wire/servers.js';

const CLIENT_MS = 500;
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** A fetch through an undici Agent whose headers and body timeouts are CLIENT_MS. */
function fetchWithTimeouts(): typeof fetch {
  const dispatcher = new Agent({ headersTimeout: CLIENT_MS, bodyTimeout: CLIENT_MS });
  agents.push(dispatcher);
  return ((url: string, init: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}

const chat = (url: string) => ({
  kind: 'openai-compatible' as const,
  baseUrl: url,
  chat: { models: { fast: 'm' } },
});
const ask = { model: 'fast', messages: [{ role: 'user' as const, content: 'Book a table.' }] };

/** a: headers after 1.5 s (`headers`), or headers and a role chunk at once then a silent body (`body`). */
async function slowServer(slow: 'headers' | 'body') {
  return httpServer(async (req, res) => {
    await readBody(req);
    if (slow === 'headers') {
      await new Promise((resolve) => setTimeout(resolve, 3 * CLIENT_MS));
      if (!res.destroyed) answerChat(res, 'late');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sseFrames([chatChunk({ role: 'assistant', content: '' })]));
  });
}

describe("C25: a fetch whose dispatcher times out before the route's deadlines is named as such", () => {
  for (const [slow, code, option, phase] of [
    ['headers', 'UND_ERR_HEADERS_TIMEOUT', 'headersTimeout', 'headers'],
    ['body', 'UND_ERR_BODY_TIMEOUT', 'bodyTimeout', 'idle'],
  ] as const) {
    it(`C25: the dispatcher's ${option} cuts the call (route: 5 s deadlines): TimeoutError ${phase} naming ${code}, and the next provider serves`, async () => {
      const a = await slowServer(slow);
      const b = await httpServer(async (req, res) => {
        await readBody(req);
        answerChat(res, 'Table booked.');
      });
      const route = { strategy: 'priority' as const, firstChunkTimeoutMs: 5000, idleTimeoutMs: 5000 };
      const fetch = fetchWithTimeouts();
      const alone = router(
        { providers: { a: chat(a.url) }, routes: { chat: { providers: ['a'], ...route } } },
        { fetch },
      );
      const { error } = await drain(alone.chat(ask));
      expect(AllProvidersFailedError.isInstance(error)).toBe(true);
      const timeout = (error as AllProvidersFailedError).attempts[0]!.error;
      expect(TimeoutError.isInstance(timeout)).toBe(true);
      if (!TimeoutError.isInstance(timeout)) return;
      expect([timeout.phase, timeout.timeoutMs, timeout.setting, timeout.retryable]).toEqual([
        phase,
        0,
        undefined,
        true,
      ]);
      expect(timeout.message).toContain(
        `before the HTTP client's own timeout (${code}: its ${option}), not a voxroute deadline`,
      );
      expect(timeout.message).not.toContain('within');

      const both = router(
        {
          providers: { a: chat(a.url), b: chat(b.url) },
          routes: { chat: { providers: ['a', 'b'], ...route } },
        },
        { fetch },
      );
      const served = both.chat(ask);
      const { items, error: none } = await drain(served);
      expect(none).toBeUndefined();
      expect(items).toEqual([
        { type: 'text-delta', text: 'Table booked.' },
        { type: 'finish', finishReason: 'stop' },
      ]);
      expect((await served.result).provider).toBe('b');
    });
  }
});
