/**
 * The caller's own text or audio stream throws an error that quotes a secret of the router's
 * config (an upstream LLM SDK's `401 Incorrect API key provided: <key>`, a mic library that
 * prints its token): the RequestError voxroute throws quotes the caller's error through the
 * router's redaction, like a provider's, so no configured secret (nor anything shaped like a
 * credential) reaches its message, stack or cause chain. The caller's own error object is not
 * changed: the cause is a cleaned copy of it, of the same class; an error holding no secret is
 * the cause itself. Providers are loopback servers speaking the wire on their own (node:http).
 */
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/index.js';
import { answerPcm, batchStt, drain, httpServer, pcmSignal, readBody, router } from './wire/servers.js';

/** Built from parts so that no key-shaped literal is in the tree. */
const KEY = `${'sk-'}proj-adv16SECRETkeyABCDEFGHIJKLMNOP0123`;
/** A credential the config does not hold, shaped like one. */
const FOREIGN = `${'sk-'}ant-${'Zq7Xw2Rt9Vb4Nm6Lp8Kj3Hg5'}`;

class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    message: string,
    readonly status: number,
    readonly body: { error: { message: string } },
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

async function ttsRouter() {
  const wire = await httpServer(async (req, res) => {
    await readBody(req);
    answerPcm(res, pcmSignal(2400, 24_000));
  });
  return router({
    providers: {
      a: { kind: 'openai', baseUrl: `${wire.url}/v1`, apiKey: KEY, tts: { voices: { v: 'alloy' } } },
    },
    routes: { tts: { providers: ['a'] } },
  });
}

/** Everything a caller could print of `error`: messages and stacks down the cause chain, and fields. */
function printed(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 10; depth++) {
    parts.push(String(e.message), String(e.stack), JSON.stringify(e));
    e = e.cause as Record<string, unknown> | undefined;
  }
  return parts.join('\n');
}

describe("an error of the caller's text stream quoting a secret", () => {
  it('is quoted redacted in the RequestError; its cause is a cleaned copy, the original untouched', async () => {
    const r = await ttsRouter();
    const inner = new Error(`token ${KEY} refused`);
    const original = new UpstreamError(
      `401 Incorrect API key provided: ${KEY}. Also tried ${FOREIGN}.`,
      401,
      { error: { message: `Incorrect API key provided: ${KEY}` } },
      { cause: inner },
    );
    async function* llmTokens() {
      yield 'Hello there. ';
      throw original;
    }
    const { error } = await drain(r.tts({ text: llmTokens(), voice: 'v' }));
    expect(RequestError.isInstance(error)).toBe(true);
    const request = error as RequestError;
    expect(request.field).toBe('text');
    expect(request.message).toBe(
      "Invalid request field 'text': the caller's text stream threw (UpstreamError: 401 Incorrect API key provided: [redacted]. Also tried [redacted].)",
    );
    const cause = request.cause as UpstreamError;
    expect(cause).not.toBe(original);
    expect(cause).toBeInstanceOf(UpstreamError);
    expect(cause.name).toBe('UpstreamError');
    expect(cause.message).toBe('401 Incorrect API key provided: [redacted]. Also tried [redacted].');
    expect(cause.status).toBe(401);
    expect(cause.body).toEqual({ error: { message: 'Incorrect API key provided: [redacted]' } });
    expect((cause.cause as Error).message).toBe('token [redacted] refused');
    const all = printed(request);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(KEY.slice(0, 20));
    expect(all).not.toContain(FOREIGN);
    // The caller's own objects are left as they were.
    expect(original.message).toBe(`401 Incorrect API key provided: ${KEY}. Also tried ${FOREIGN}.`);
    expect(original.body.error.message).toBe(`Incorrect API key provided: ${KEY}`);
    expect(inner.message).toBe(`token ${KEY} refused`);
    expect(original.cause).toBe(inner);
  });

  it('a thrown string is quoted redacted and is the redacted cause', async () => {
    const r = await ttsRouter();
    async function* tokens() {
      yield 'Hello there. ';
      throw `bad key ${KEY}`;
    }
    const { error } = await drain(r.tts({ text: tokens(), voice: 'v' }));
    const request = error as RequestError;
    expect(request.message).toBe(
      "Invalid request field 'text': the caller's text stream threw (bad key [redacted])",
    );
    expect(request.cause).toBe('bad key [redacted]');
  });

  it('an error holding no secret is quoted verbatim and is the cause itself', async () => {
    const r = await ttsRouter();
    const original = new Error('the LLM stream was reset (ECONNRESET) after 12 tokens');
    async function* tokens() {
      yield 'Hello there. ';
      throw original;
    }
    const { error } = await drain(r.tts({ text: tokens(), voice: 'v' }));
    const request = error as RequestError;
    expect(request.message).toBe(
      "Invalid request field 'text': the caller's text stream threw (Error: the LLM stream was reset (ECONNRESET) after 12 tokens)",
    );
    expect(request.cause).toBe(original);
  });
});

describe("an error of the caller's audio stream quoting a secret", () => {
  it('is quoted redacted in the RequestError (field audio)', async () => {
    const stt = await batchStt('hello');
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${stt.url}/v1`, apiKey: KEY, stt: { model: 'whisper-1' } },
      },
      routes: { stt: { providers: ['a'] } },
    });
    const original = new Error(`mic token ${KEY}`);
    async function* mic() {
      yield new Uint8Array(3200);
      throw original;
    }
    const { items, error } = await drain(
      r.stt({ audio: mic(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items).toEqual([]);
    expect(RequestError.isInstance(error)).toBe(true);
    const request = error as RequestError;
    expect(request.field).toBe('audio');
    expect(request.message).toBe(
      "Invalid request field 'audio': the caller's audio stream threw (Error: mic token [redacted])",
    );
    expect((request.cause as Error).message).toBe('mic token [redacted]');
    expect(printed(request)).not.toContain(KEY.slice(0, 20));
    expect(original.message).toBe(`mic token ${KEY}`);
    expect(stt.uploads).toEqual([]);
  });
});

describe("a RequestError thrown by the caller's own stream", () => {
  it("redaction: a RequestError of the caller's text stream quoting a configured key is thrown as a cleaned copy", async () => {
    const r = await ttsRouter();
    const original = new RequestError('voice', `upstream refused key ${KEY}`);
    async function* tokens() {
      yield 'Hello there. ';
      throw original;
    }
    const { error } = await drain(r.tts({ text: tokens(), voice: 'v' }));
    expect(RequestError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).not.toBe(original);
    const request = error as RequestError;
    expect(request.name).toBe('RequestError');
    expect(request.field).toBe('voice');
    expect(request.message).toBe("Invalid request field 'voice': upstream refused key [redacted]");
    // Audio was yielded before the text failed: the cleaned copy is thrown as after output.
    expect(request.partialOutput).toBe(true);
    expect(printed(request)).not.toContain(KEY.slice(0, 20));
    // The caller's own error is left as it was.
    expect(original.message).toBe(`Invalid request field 'voice': upstream refused key ${KEY}`);
  });

  it("redaction: a RequestError of the caller's audio stream quoting a configured key is thrown as a cleaned copy", async () => {
    const stt = await batchStt('hello');
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${stt.url}/v1`, apiKey: KEY, stt: { model: 'whisper-1' } },
      },
      routes: { stt: { providers: ['a'] } },
    });
    const original = new RequestError('audio', `mic token ${KEY}`);
    async function* mic() {
      yield new Uint8Array(3200);
      throw original;
    }
    const { items, error } = await drain(
      r.stt({ audio: mic(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).not.toBe(original);
    const request = error as RequestError;
    expect(request.field).toBe('audio');
    expect(request.message).toBe("Invalid request field 'audio': mic token [redacted]");
    expect(printed(request)).not.toContain(KEY.slice(0, 20));
    expect(original.message).toBe(`Invalid request field 'audio': mic token ${KEY}`);
    expect(stt.uploads).toEqual([]);
  });

  it('a RequestError of the caller holding no secret is thrown as it is', async () => {
    const stt = await batchStt('hello');
    const r = router({
      providers: {
        a: { kind: 'openai-compatible', baseUrl: `${stt.url}/v1`, apiKey: KEY, stt: { model: 'whisper-1' } },
      },
      routes: { stt: { providers: ['a'] } },
    });
    const original = new RequestError('audio', 'the microphone was unplugged');
    async function* mic() {
      yield new Uint8Array(3200);
      throw original;
    }
    const { error } = await drain(
      r.stt({ audio: mic(), format: { encoding: 'pcm_s16le', sampleRate: 16_000 } }),
    );
    expect(error).toBe(original);
  });
});
