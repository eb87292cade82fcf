/**
 * A voice turn whose request cannot succeed fails before any provider is contacted: a malformed
 * field of any of its three stages throws a RequestError naming the field when voiceTurn() is
 * called, and an unknown model, voice or route throws a RequestError naming it from the
 * iterator before the STT stage (which is billed) starts (a stage's default route missing from
 * the config: a ConfigError). The server speaks OpenAI's wire on its own and counts
 * every request.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, RequestError, type VoiceTurnRequest, voiceTurn } from '../../src/index.js';
import { answerChat, answerPcm, httpServer, pcmSignal, router } from './wire/servers.js';
import { voiceTurnConfig } from './wire/voice-turn-config.js';

/** The server and a router over it; `without` leaves out the default route of that stage. */
async function setup(without?: 'stt' | 'chat' | 'tts') {
  const paths: string[] = [];
  const wire = await httpServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/audio/transcriptions')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"text":"A table for two."}');
      } else if (req.url?.endsWith('/chat/completions')) answerChat(res, 'Sure.');
      else answerPcm(res, pcmSignal(2400, 24_000, 6));
    });
  });
  const config = voiceTurnConfig(wire.url);
  if (without) delete config.routes[without];
  return { r: router(config), paths };
}

async function* mic() {
  for (let i = 0; i < 3; i++) yield new Uint8Array(3200);
}

function turnRequest(over: Partial<VoiceTurnRequest> | Record<string, unknown> = {}): VoiceTurnRequest {
  return {
    audio: mic(),
    format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    messages: [],
    model: 'f',
    voice: 'v',
    ...over,
  } as VoiceTurnRequest;
}

describe('a voice turn is checked before any provider is contacted', () => {
  it('an unknown model, voice or route ends the turn with a RequestError naming it before STT starts', async () => {
    const { r, paths } = await setup();
    const cases: Array<[Partial<VoiceTurnRequest>, string, string]> = [
      [{ model: 'gpt-9' }, 'model', "no model 'gpt-9' on route 'chat'; its models: f"],
      [{ voice: 'nobody' }, 'voice', "no voice 'nobody' on route 'tts'; its voices: v"],
      [{ routes: { tts: 'nope' } }, 'routes.tts', "no route named 'nope' in the config; tts routes: tts"],
      [{ routes: { chat: 'tts' } }, 'routes.chat', "route 'tts' is a tts route, not chat; chat routes: chat"],
      [{ routes: { stt: 'nope' } }, 'routes.stt', "no route named 'nope' in the config; stt routes: stt"],
    ];
    for (const [over, field, message] of cases) {
      const turn = voiceTurn(r, turnRequest(over));
      const events: string[] = [];
      let error: unknown;
      try {
        for await (const e of turn) events.push(e.type);
      } catch (e) {
        error = e;
      }
      expect(RequestError.isInstance(error)).toBe(true);
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
        field,
        `Invalid request field '${field}': ${message}`,
      ]);
      expect(events).toEqual([]);
      await expect(turn.result).rejects.toBe(error);
    }
    expect(paths).toEqual([]);
  });

  it('a stage whose default route the config lacks ends the turn with a ConfigError naming the route', async () => {
    const { r, paths } = await setup('tts');
    const turn = voiceTurn(r, turnRequest());
    let error: unknown;
    try {
      for await (const _ of turn);
    } catch (e) {
      error = e;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).issues).toEqual([
      { path: ['routes', 'tts'], message: "no route named 'tts' in the config; the config has no tts route" },
    ]);
    expect(paths).toEqual([]);
  });

  it('a malformed field of any stage throws a RequestError naming it at the first step of the turn', async () => {
    const { r, paths } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ voice: undefined }, 'voice'],
      [{ voice: '' }, 'voice'],
      [{ model: 7 }, 'model'],
      [{ audio: [new Uint8Array(2)] }, 'audio'],
      [{ format: { encoding: 'pcm_s16le', sampleRate: 5 } }, 'format.sampleRate'],
      [{ output: { encoding: 'mp3', sampleRate: 24_000 } }, 'output.encoding'],
      [{ messages: [{ role: 'robot', content: 'hi' }] }, 'messages.0.role'],
      [{ messages: 'hi' }, 'messages'],
      [{ language: 'not a tag!' }, 'language'],
      [{ routes: { tts: '' } }, 'routes.tts'],
      [{ budgetMs: 0 }, 'budgetMs'],
      [{ signal: {} }, 'signal'],
    ];
    for (const [over, field] of cases) {
      // No throw when called: the first step of the loop throws, and result rejects alike.
      const turn = voiceTurn(r, turnRequest(over));
      let error: unknown;
      try {
        await turn[Symbol.asyncIterator]().next();
      } catch (e) {
        error = e;
      }
      expect([field, RequestError.isInstance(error) && error.field]).toEqual([field, field]);
      await expect(turn.result).rejects.toBe(error);
    }
    expect(paths).toEqual([]);
  });

  it('tts() without a voice fails with a RequestError naming the voice', async () => {
    const { r, paths } = await setup();
    let error: unknown;
    try {
      for await (const _ of r.tts({ text: 'Hello.' } as never)) {
        // nothing comes
      }
    } catch (e) {
      error = e;
    }
    expect(RequestError.isInstance(error) && [error.field, error.message]).toEqual([
      'voice',
      "Invalid request field 'voice': expected a voice name, got undefined",
    ]);
    expect(paths).toEqual([]);
  });

  it("the check opens none of the caller's audio: a stream that can be read once (a web ReadableStream) is read by the STT stage alone", async () => {
    const { r, paths } = await setup();
    const chunks = [new Uint8Array(3200).fill(1), new Uint8Array(3200).fill(2)];
    const audio = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    let opened = 0;
    const once: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        opened++;
        return (audio as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
      },
    };
    const turn = voiceTurn(r, turnRequest({ audio: once }));
    const transcripts: string[] = [];
    for await (const e of turn) if (e.type === 'transcript') transcripts.push(e.event.text);
    expect(transcripts).toEqual(['A table for two.']);
    expect(opened).toBe(1);
    expect(paths).toEqual(['/v1/audio/transcriptions', '/v1/chat/completions', '/v1/audio/speech']);
  });

  it('a valid turn still runs all three stages', async () => {
    const { r, paths } = await setup();
    const turn = voiceTurn(r, turnRequest());
    const types = new Set<string>();
    for await (const e of turn) types.add(e.type);
    expect([...types]).toEqual(['transcript', 'reply-delta', 'audio']);
    expect(paths).toEqual(['/v1/audio/transcriptions', '/v1/chat/completions', '/v1/audio/speech']);
  });
});
