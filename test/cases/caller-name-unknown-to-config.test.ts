/**
 * A voice, model or route name the caller passes that the config does not know is the caller's
 * input, not a config fault: a RequestError whose `field` is `voice`, `model` or `route` and
 * whose message lists the names the route knows, thrown before any provider is contacted and
 * before the call reads its input. Before, it was a ConfigError (issues at
 * `providers.<name>.tts` or `routes.<name>`), and a tts() text with nothing to speak hid an
 * unknown voice (the call ended with no error). Only a capability's default route missing from
 * the config, which no caller field names, stays a ConfigError. The servers speak OpenAI's
 * chat, speech and transcription wire on their own (node:http) and count every request.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, RequestError, type RouterConfig } from '../../src/index.js';
import { answerChat, answerPcm, drain, httpServer, pcmSignal, router } from './wire/servers.js';

const MESSAGES = [{ role: 'user' as const, content: 'Book a table for four.' }];
const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000 } as const;

/** Two OpenAI-compatible providers over one server counting requests, and a router over them. */
async function setup(routes?: RouterConfig['routes']) {
  const wire = await httpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Booked.');
      else if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"A table for four."}');
      } else answerPcm(res, pcmSignal(2400, 24_000, 3));
    });
  });
  const base = { kind: 'openai-compatible' as const, baseUrl: `${wire.url}/v1` };
  const r = router({
    providers: {
      a: {
        ...base,
        chat: { models: { fast: 'm1', smart: 'm2' } },
        tts: { voices: { agent: 'v1', narrator: 'v2' } },
        stt: { model: 'w', streaming: false },
      },
      b: { ...base, chat: { models: { fast: 'm3' } }, tts: { voices: { agent: 'v3', kid: 'v4' } } },
      c: { ...base, tts: { voices: { premium: 'v5' } } },
    },
    routes: routes ?? {
      tts: { providers: ['a', 'b'] },
      'tts-premium': { capability: 'tts', providers: ['c'] },
      chat: { providers: ['a', 'b'] },
      stt: { providers: ['a'] },
    },
  });
  return { r, wire };
}

/** The RequestError's field and message, failing when `error` is not one. */
function requestError(error: unknown): [string, string] {
  expect(RequestError.isInstance(error), `expected a RequestError, got ${String(error)}`).toBe(true);
  const e = error as RequestError;
  expect(e.retryable).toBe(false);
  return [e.field, e.message];
}

describe('caller-name-unknown: a name the config does not know is the caller’s RequestError', () => {
  it("caller-name-unknown: tts() voice: RequestError at 'voice' listing the route's voices, no request", async () => {
    const { r, wire } = await setup();
    const { items, error } = await drain(r.tts({ text: 'Your table is booked.', voice: 'nope' }));
    expect(items).toEqual([]);
    expect(requestError(error)).toEqual([
      'voice',
      "Invalid request field 'voice': no voice 'nope' on route 'tts'; its voices: agent, narrator, kid",
    ]);
    // A voice of another route is not one of this route's.
    const other = await drain(r.tts({ text: 'Your table is booked.', voice: 'premium' }));
    expect(requestError(other.error)[1]).toBe(
      "Invalid request field 'voice': no voice 'premium' on route 'tts'; its voices: agent, narrator, kid",
    );
    expect(wire.hits).toBe(0);
  });

  it("caller-name-unknown: chat() model: RequestError at 'model' listing the route's models, no request", async () => {
    const { r, wire } = await setup();
    const { items, error } = await drain(r.chat({ messages: MESSAGES, model: 'gpt-9' }));
    expect(items).toEqual([]);
    expect(requestError(error)).toEqual([
      'model',
      "Invalid request field 'model': no model 'gpt-9' on route 'chat'; its models: fast, smart",
    ]);
    expect(wire.hits).toBe(0);
  });

  it("caller-name-unknown: a route that does not exist or serves another capability: RequestError at 'route'", async () => {
    const { r, wire } = await setup();
    const cases: Array<[() => AsyncIterable<unknown>, string]> = [
      [
        () => r.tts({ text: 'Hello.', voice: 'agent', route: 'tts-premuim' }),
        "no route named 'tts-premuim' in the config; tts routes: tts, tts-premium",
      ],
      [
        () => r.tts({ text: 'Hello.', voice: 'agent', route: 'chat' }),
        "route 'chat' is a chat route, not tts; tts routes: tts, tts-premium",
      ],
      [
        () => r.chat({ messages: MESSAGES, model: 'fast', route: 'fast' }),
        "no route named 'fast' in the config; chat routes: chat",
      ],
      [
        () => r.stt({ audio: (async function* () {})(), format: FORMAT, route: 'tts' }),
        "route 'tts' is a tts route, not stt; stt routes: stt",
      ],
    ];
    for (const [call, message] of cases) {
      const { items, error } = await drain(call());
      expect(items).toEqual([]);
      expect(requestError(error)).toEqual(['route', `Invalid request field 'route': ${message}`]);
    }
    expect(wire.hits).toBe(0);
  });

  it('caller-name-unknown: an unknown voice fails before the text is read, even a text with nothing to speak', async () => {
    const { r, wire } = await setup();
    const silent = await drain(r.tts({ text: '...', voice: 'nope' }));
    expect(requestError(silent.error)[0]).toBe('voice');
    let pulls = 0;
    const tokens: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          pulls++;
          // An LLM that has not answered yet: the call must not wait for it.
          return new Promise<IteratorResult<string>>(() => {});
        },
        return: async () => ({ done: true, value: undefined }),
      }),
    };
    const streamed = await drain(r.tts({ text: tokens, voice: 'nope' }));
    expect(requestError(streamed.error)[0]).toBe('voice');
    expect(pulls).toBe(0);
    expect(wire.hits).toBe(0);
  });

  it('caller-name-unknown: known names still route, and the same names work on the named route', async () => {
    const { r, wire } = await setup();
    expect((await drain(r.tts({ text: 'Your table is booked.', voice: 'kid' }))).error).toBeUndefined();
    expect(
      (await drain(r.tts({ text: 'Your table is booked.', voice: 'premium', route: 'tts-premium' }))).error,
    ).toBeUndefined();
    expect((await drain(r.chat({ messages: MESSAGES, model: 'smart' }))).error).toBeUndefined();
    expect(wire.hits).toBe(3);
  });

  it('caller-name-unknown: a default route missing from the config (no caller field names it) stays a ConfigError', async () => {
    const { r, wire } = await setup({ chat: { providers: ['a'] } });
    const { error } = await drain(r.tts({ text: 'Hello.', voice: 'agent' }));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([
      { path: ['routes', 'tts'], message: "no route named 'tts' in the config; the config has no tts route" },
    ]);
    // With a tts route of another name, the message names it.
    const other = await setup({ 'tts-x': { capability: 'tts', providers: ['a'] } });
    const named = await drain(other.r.tts({ text: 'Hello.', voice: 'agent' }));
    expect((named.error as ConfigError).issues).toEqual([
      {
        path: ['routes', 'tts'],
        message:
          "no route named 'tts' in the config; name one of its tts routes in the call's `route` (tts-x), or add a route named 'tts'",
      },
    ]);
    expect(wire.hits).toBe(0);
  });
});
