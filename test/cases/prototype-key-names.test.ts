/**
 * Names that are members of Object.prototype (`constructor`, `toString`, `hasOwnProperty`,
 * `__proto__`, `valueOf`) are names like any other: a voice, model or route the config does not
 * define is refused exactly as an unknown name ('nope') is, with the same typed error and before
 * any provider is contacted, and one the config does define is used. Before, the lookup went
 * through the prototype chain: the provider counted as mapping the name and was called with no
 * voice or model (the server's default answered), and `route: 'constructor'` said "is a undefined
 * route". The servers speak each provider's wire on their own (node:http, ws, SageMaker's event
 * stream) and record every synthesis or chat request they get.
 */
import { describe, expect, it } from 'vitest';
import { pickName, pickRoute } from '../../src/cli/router-call.js';
import {
  ConfigError,
  parseConfig,
  RequestError,
  type Router,
  type RouterConfig,
  type VoxrouteError,
} from '../../src/index.js';
import { chatAnswer, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';
import { TTS_KINDS } from './wire/tts-servers.js';

const KEYS = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'] as const;
const AUDIO = pcmSignal(2400, 24_000);
const MESSAGES = [{ role: 'user' as const, content: 'Book a table for four.' }];
const NO_AUDIO = (async function* () {})();

/** The error a call ends with (thrown at the call or by its stream), and what it yielded. */
async function outcome(call: () => AsyncIterable<unknown>): Promise<{ items: unknown[]; error: unknown }> {
  try {
    return await drain(call());
  } catch (error) {
    return { items: [], error };
  }
}

/** `error`'s class name and message, for comparing two errors whole. */
function shape(error: unknown): { name: string; message: string; config: boolean; request: boolean } {
  const e = error as VoxrouteError;
  return {
    name: e?.name,
    message: e?.message,
    config: ConfigError.isInstance(error),
    request: RequestError.isInstance(error),
  };
}

/**
 * What the call with `name` ends with must be what it ends with for 'nope', name for name: a
 * RequestError (the caller's name), or a ConfigError with `config` (a route naming a provider).
 */
async function expectRefusedLikeNope(name: string, call: (n: string) => AsyncIterable<unknown>) {
  const nope = await outcome(() => call('nope'));
  const got = await outcome(() => call(name));
  expect(got.items).toEqual([]);
  expect(shape(got.error)).toEqual({
    ...shape(nope.error),
    message: shape(nope.error).message.replace(/\bnope\b/g, name),
  });
  expect(shape(got.error).request).toBe(true);
}

/** An OpenAI-compatible chat server recording each request's model. */
async function chatServer() {
  const models: string[] = [];
  const wire = await httpServer(async (req, res) => {
    models.push((JSON.parse((await readBody(req)).toString()) as { model: string }).model);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(chatAnswer('Table booked.'));
  });
  return { wire, models };
}

/** An Anthropic Messages server recording each request's model. */
async function anthropicServer() {
  const models: string[] = [];
  const wire = await httpServer(async (req, res) => {
    models.push((JSON.parse((await readBody(req)).toString()) as { model: string }).model);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(
      [
        {
          type: 'message_start',
          message: { id: 'm', type: 'message', role: 'assistant', model: 'c', content: [], usage: {} },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Booked.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
        { type: 'message_stop' },
      ]
        .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
        .join(''),
    );
  });
  return { wire, models };
}

/** Attempts the router started (its `attempt` events). */
function attemptsOf(r: Router): string[] {
  const seen: string[] = [];
  r.on('attempt', (e) => seen.push(e.provider));
  return seen;
}

describe('prototype-key: names of Object.prototype members are looked up as own names only', () => {
  for (const kind of TTS_KINDS) {
    it(`prototype-key: tts() voice over ${kind.name}: each prototype name is refused like 'nope', no request sent`, async () => {
      const a = await kind.serve(() => AUDIO);
      const r = router({ providers: { a: a.provider }, routes: { tts: { providers: ['a'] } } });
      const attempts = attemptsOf(r);
      for (const key of KEYS) {
        await expectRefusedLikeNope(key, (voice) => r.tts({ text: 'Hello there.', voice }));
      }
      expect(a.requests).toEqual([]);
      expect(attempts).toEqual([]);
    });
  }

  it("prototype-key: tts() voice: the refusal is a RequestError at 'voice' naming the voice", async () => {
    const a = await TTS_KINDS[0]!.serve(() => AUDIO);
    const r = router({ providers: { a: a.provider }, routes: { tts: { providers: ['a'] } } });
    const { error } = await outcome(() => r.tts({ text: 'Hello there.', voice: 'constructor' }));
    expect(RequestError.isInstance(error)).toBe(true);
    expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
      'voice',
      "Invalid request field 'voice': no voice 'constructor' on route 'tts'; its voices: agent",
    ]);
  });

  for (const wire of ['OpenAI-compatible', 'Anthropic'] as const) {
    it(`prototype-key: chat() model over ${wire}: each prototype name is refused like 'nope', no request sent`, async () => {
      const server = wire === 'Anthropic' ? await anthropicServer() : await chatServer();
      const provider: RouterConfig['providers'][string] =
        wire === 'Anthropic'
          ? {
              kind: 'anthropic',
              baseUrl: server.wire.url,
              apiKey: 'sk-ant-proto',
              chat: { models: { fast: 'c' } },
            }
          : { kind: 'openai-compatible', baseUrl: `${server.wire.url}/v1`, chat: { models: { fast: 'm' } } };
      const r = router({ providers: { a: provider }, routes: { chat: { providers: ['a'] } } });
      const attempts = attemptsOf(r);
      for (const key of KEYS) {
        await expectRefusedLikeNope(key, (model) => r.chat({ messages: MESSAGES, model }));
      }
      expect(server.wire.hits).toBe(0);
      expect(attempts).toEqual([]);
    });
  }

  it('prototype-key: route: each prototype name is refused like an unknown route, for tts(), chat() and stt(), no request sent', async () => {
    const chat = await chatServer();
    const tts = await TTS_KINDS[0]!.serve(() => AUDIO);
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${chat.wire.url}/v1`, chat: { models: { fast: 'm' } } },
        b: tts.provider,
      },
      routes: { chat: { providers: ['a'] }, tts: { providers: ['b'] } },
    });
    const attempts = attemptsOf(r);
    for (const key of KEYS) {
      await expectRefusedLikeNope(key, (route) => r.tts({ text: 'Hello there.', voice: 'agent', route }));
      await expectRefusedLikeNope(key, (route) => r.chat({ messages: MESSAGES, model: 'fast', route }));
      await expectRefusedLikeNope(key, (route) =>
        r.stt({ audio: NO_AUDIO, format: { encoding: 'pcm_s16le', sampleRate: 16_000 }, route }),
      );
      const { error } = await outcome(() => r.tts({ text: 'Hello there.', voice: 'agent', route: key }));
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
        'route',
        `Invalid request field 'route': no route named '${key}' in the config; tts routes: tts`,
      ]);
    }
    expect([chat.wire.hits, tts.requests]).toEqual([0, []]);
    expect(attempts).toEqual([]);
  });

  it('prototype-key: a route naming a prototype name as provider is refused like an unknown provider', () => {
    const configOf = (name: string): RouterConfig => ({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: [name] } },
    });
    const refusal = (name: string) => {
      try {
        parseConfig(configOf(name));
      } catch (error) {
        return shape(error);
      }
      return undefined;
    };
    const nope = refusal('nope');
    expect(nope?.config).toBe(true);
    expect(nope?.request).toBe(false);
    for (const key of KEYS) {
      expect(refusal(key)).toEqual({ ...nope, message: nope!.message.replace(/\bnope\b/g, key) });
    }
  });

  it('prototype-key: voices and models the config names after prototype members are used as configured', async () => {
    const chat = await chatServer();
    const speech: string[] = [];
    const tts = await httpServer(async (req, res) => {
      speech.push((JSON.parse((await readBody(req)).toString()) as { voice: string }).voice);
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(AUDIO);
    });
    const r = router({
      providers: {
        a: {
          kind: 'openai-compatible',
          baseUrl: `${chat.wire.url}/v1`,
          chat: { models: { constructor: 'm-constructor', valueOf: 'm-valueOf' } },
        },
        b: {
          kind: 'openai-compatible',
          baseUrl: `${tts.url}/v1`,
          tts: { voices: { toString: 'v-toString', hasOwnProperty: 'v-hasOwnProperty' } },
        },
      },
      routes: { chat: { providers: ['a'] }, tts: { providers: ['b'] } },
    });
    for (const model of ['constructor', 'valueOf']) {
      expect((await drain(r.chat({ messages: MESSAGES, model }))).error).toBeUndefined();
    }
    for (const voice of ['toString', 'hasOwnProperty']) {
      expect((await drain(r.tts({ text: 'Hello there.', voice }))).error).toBeUndefined();
    }
    expect(chat.models).toEqual(['m-constructor', 'm-valueOf']);
    expect(speech).toEqual(['v-toString', 'v-hasOwnProperty']);
  });

  it("prototype-key: the CLI's --route and --model picks refuse each prototype name like an unknown one", () => {
    const config = parseConfig({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', chat: { models: { fast: 'm' } } },
      },
      routes: { chat: { providers: ['a'] } },
    });
    for (const key of KEYS) {
      expect(() => pickRoute(config, 'chat', key)).toThrow(`no route '${key}'; chat routes: chat`);
      expect(() => pickName(config, 'chat', 'chat', key)).toThrow(
        `chat: no model '${key}' on route 'chat'; models: fast`,
      );
    }
  });
});
