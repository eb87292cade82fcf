/**
 * A voice turn's `maxTokens` and `temperature` reach the chat stage's provider, and its `speed`
 * the TTS stage's, as chat() and tts() send them (OpenAI-compatible `max_tokens`, OpenAI
 * `max_completion_tokens`, `temperature`, `speed`); left out, the providers' requests carry
 * none of them. A bad value is the RequestError chat() or tts() throws for it, naming the field,
 * before any provider is contacted (no connection is made). The server speaks OpenAI's wire on
 * its own (node:http) and records every request body.
 */
import { describe, expect, it } from 'vitest';
import { RequestError, type Router, type VoiceTurnRequest, voiceTurn } from '../../src/index.js';
import { answerChat, drain, pcmSignal, router } from '../cases/wire/servers.js';
import { voiceTurnConfig } from '../cases/wire/voice-turn-config.js';
import {
  answerSpeech,
  answerTranscript,
  chatFrame,
  speechInput,
  type TurnWire,
  turnRouter,
  turnWire,
} from './turn-wire.js';

/** Answers every stage: transcript "A table for two.", reply "Sure.", 100 ms of speech. */
function answering(): Promise<TurnWire> {
  return turnWire((req, res) => {
    if (req.path.endsWith('/audio/transcriptions')) answerTranscript(res, 'A table for two.');
    else if (req.path.endsWith('/chat/completions')) answerChat(res, 'Sure.');
    else answerSpeech(res, pcmSignal(2400, 24_000, 6));
  });
}

async function* mic() {
  for (let i = 0; i < 3; i++) yield new Uint8Array(3200);
}

function turnRequest(over: Record<string, unknown> = {}): VoiceTurnRequest {
  return {
    audio: mic(),
    format: { encoding: 'pcm_s16le', sampleRate: 16_000 },
    messages: [],
    model: 'f',
    voice: 'v',
    ...over,
  } as VoiceTurnRequest;
}

/** Runs a turn to its end; the JSON bodies of its chat and speech requests. */
async function bodies(r: Router, wire: TurnWire, over: Record<string, unknown> = {}) {
  const turn = voiceTurn(r, turnRequest(over));
  for await (const _ of turn);
  await turn.result;
  const json = (suffix: string) =>
    wire.requests.filter((q) => q.path.endsWith(suffix)).map((q) => JSON.parse(q.body.toString()) as unknown);
  return { chat: json('/chat/completions'), speech: json('/audio/speech') };
}

const CHAT_BODY = {
  model: 'm',
  messages: [{ role: 'user', content: 'A table for two.' }],
  stream: true,
  stream_options: { include_usage: true },
};
const SPEECH_BODY = { input: 'Sure.', voice: 'x', response_format: 'pcm' };

describe('voiceTurn maxTokens, temperature and speed', () => {
  it('are sent to the chat stage (max_tokens, temperature) and the TTS stage (speed) of an OpenAI-compatible server', async () => {
    const wire = await answering();
    const sent = await bodies(turnRouter(wire.url), wire, { maxTokens: 60, temperature: 0.3, speed: 1.25 });
    expect(sent).toEqual({
      chat: [{ ...CHAT_BODY, max_tokens: 60, temperature: 0.3 }],
      speech: [{ ...SPEECH_BODY, speed: 1.25 }],
    });
  });

  it('reach OpenAI as max_completion_tokens, the field its adapter writes', async () => {
    const wire = await answering();
    const config = voiceTurnConfig(wire.url);
    const r = router({
      ...config,
      providers: { a: { ...config.providers.a!, kind: 'openai', apiKey: 'sk-NOT-A-REAL-KEY-0000' } },
    } as typeof config);
    const sent = await bodies(r, wire, { maxTokens: 1, temperature: 0, speed: 4 });
    expect(sent).toEqual({
      chat: [{ ...CHAT_BODY, max_completion_tokens: 1, temperature: 0 }],
      speech: [{ ...SPEECH_BODY, model: 'gpt-4o-mini-tts', speed: 4 }],
    });
  });

  it('a reply cut by maxTokens is spoken as far as it got, its unfinished last sentence included', async () => {
    const wire = await turnWire((req, res) => {
      if (req.path.endsWith('/audio/transcriptions')) return answerTranscript(res, 'A table for two.');
      if (req.path.endsWith('/audio/speech')) return answerSpeech(res, pcmSignal(2400, 24_000, 6));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `${chatFrame({ role: 'assistant', content: 'Sure, we have a table. It is by the' })}${chatFrame({}, 'length')}data: [DONE]\n\n`,
      );
    });
    const turn = voiceTurn(turnRouter(wire.url), turnRequest({ maxTokens: 12 }));
    for await (const _ of turn);
    expect((await turn.result).reply).toBe('Sure, we have a table. It is by the');
    expect(wire.requests.filter((q) => q.path.endsWith('/audio/speech')).map(speechInput)).toEqual([
      'Sure, we have a table.',
      'It is by the',
    ]);
  });

  it('left out (or undefined), send nothing new: the providers get the bodies of a turn without them', async () => {
    const wire = await answering();
    const r = turnRouter(wire.url);
    expect(await bodies(r, wire)).toEqual({ chat: [CHAT_BODY], speech: [SPEECH_BODY] });
    wire.requests.length = 0;
    const undef = { maxTokens: undefined, temperature: undefined, speed: undefined };
    expect(await bodies(r, wire, undef)).toEqual({ chat: [CHAT_BODY], speech: [SPEECH_BODY] });
  });

  it('a bad value is the RequestError chat() or tts() throws for it, before any connection', async () => {
    const wire = await answering();
    const r = turnRouter(wire.url);
    const cases: Array<[field: 'maxTokens' | 'temperature' | 'speed', value: unknown, message: string]> = [
      ['maxTokens', 0, 'expected a whole number above 0, got 0'],
      ['maxTokens', 1.5, 'expected a whole number above 0, got 1.5'],
      ['maxTokens', -3, 'expected a whole number above 0, got -3'],
      ['maxTokens', '64', 'expected a whole number above 0, got "64"'],
      ['maxTokens', Number.POSITIVE_INFINITY, 'expected a whole number above 0, got Infinity'],
      ['temperature', -0.1, 'expected a number from 0 to 2, got -0.1'],
      ['temperature', 2.5, 'expected a number from 0 to 2, got 2.5'],
      ['temperature', Number.NaN, 'expected a number from 0 to 2, got NaN'],
      ['speed', 0.2, 'expected a number from 0.25 to 4, got 0.2'],
      ['speed', 4.5, 'expected a number from 0.25 to 4, got 4.5'],
      ['speed', '1', 'expected a number from 0.25 to 4, got "1"'],
    ];
    for (const [field, value, message] of cases) {
      const turn = voiceTurn(r, turnRequest({ [field]: value }));
      const { error } = await drain(turn);
      expect(RequestError.isInstance(error)).toBe(true);
      expect([(error as RequestError).field, (error as RequestError).message]).toEqual([
        field,
        `Invalid request field '${field}': ${message}`,
      ]);
      await expect(turn.result).rejects.toBe(error);
      // The same error as the single call's: one check, not a copy of it.
      const single: AsyncIterable<unknown> =
        field === 'speed'
          ? r.tts({ text: 'Sure.', voice: 'v', speed: value as number })
          : r.chat({ messages: [{ role: 'user', content: 'Hi.' }], model: 'f', [field]: value });
      expect((await drain(single)).error).toEqual(error);
    }
    expect(wire.requests).toEqual([]);
    expect(wire.sockets).toEqual([]);
  });
});
