/**
 * A misspelt request field: request objects were not strict, so `tts({ fromat })` gave 24 kHz
 * PCM to a telephony app that asked for mu-law, `stt({ interm })` gave no partials and
 * `voiceTurn({ budgetMS })` ran with no budget. An unknown field of a tts(), stt(), chat() or
 * voiceTurn() request, of an audio format, or of a turn's routes is now a RequestError naming
 * it (with a did-you-mean), before any provider is contacted; a field set to `undefined` counts
 * as unset. Loopback OpenAI-compatible mock: its request log shows nothing was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RequestError, type Router, voiceTurn } from '../../src/index.js';
import { oneMockProviderRouter } from '../helpers/mock-providers.js';

const PCM16K = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(): Promise<{ router: Router; mock: { requests: readonly unknown[] } }> {
  const one = await oneMockProviderRouter('Hi.', ['Sure.']);
  close = one.close;
  return { router: one.router, mock: { requests: one.requests } };
}

async function* audio(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(640);
}

/** The RequestError a call's iteration (or the call itself) throws. */
async function requestError(start: () => AsyncIterable<unknown>): Promise<RequestError> {
  let caught: unknown;
  try {
    for await (const _ of start()) {
      // read to the end
    }
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(RequestError);
  return caught as RequestError;
}

describe('an unknown request field is a RequestError naming it, before any provider is contacted', () => {
  it('tts({ fromat }), tts({ format: { sampleRte } }), stt({ interm }), chat({ max_tokens })', async () => {
    const { router, mock } = await setup();
    const cases: Array<[() => AsyncIterable<unknown>, string, string]> = [
      [
        () =>
          router.tts({
            text: 'Hi.',
            voice: 'agent',
            fromat: { encoding: 'mulaw', sampleRate: 8000 },
          } as never),
        'fromat',
        "unknown field (did you mean 'format'?)",
      ],
      [
        () =>
          router.tts({
            text: 'Hi.',
            voice: 'agent',
            format: { encoding: 'mulaw', sampleRte: 8000 },
          } as never),
        'format.sampleRte',
        "unknown field (did you mean 'sampleRate'?)",
      ],
      [
        () => router.stt({ audio: audio(), format: PCM16K, interm: true } as never),
        'interm',
        "unknown field (did you mean 'interim'?)",
      ],
      [
        () =>
          router.chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 } as never),
        'max_tokens',
        "unknown field (did you mean 'maxTokens'?)",
      ],
    ];
    for (const [start, field, message] of cases) {
      const error = await requestError(start);
      expect(error.field).toBe(field);
      expect(error.message).toContain(message);
    }
    expect(mock.requests).toEqual([]);
  });

  it('voiceTurn({ budgetMS }) and voiceTurn({ routes: { sst } })', async () => {
    const { router, mock } = await setup();
    const turn = (extra: Record<string, unknown>) => () =>
      voiceTurn(router, {
        audio: audio(),
        format: PCM16K,
        messages: [],
        model: 'fast',
        voice: 'agent',
        ...extra,
      } as never);
    const budget = await requestError(turn({ budgetMS: 800 }));
    expect([budget.field, budget.message.includes("did you mean 'budgetMs'?")]).toEqual(['budgetMS', true]);
    const routes = await requestError(turn({ routes: { sst: 'stt' } }));
    expect(routes.field).toBe('routes.sst');
    expect(routes.message).toBe(
      "Invalid request field 'routes.sst': unknown field (did you mean 'stt'?); the fields are stt, chat, tts",
    );
    const far = await requestError(turn({ routes: { speech: 'stt' } }));
    expect(far.message).toBe(
      "Invalid request field 'routes.speech': unknown field; the fields are stt, chat, tts",
    );
    expect(mock.requests).toEqual([]);
  });

  it('a field set to undefined counts as unset: the call goes through', async () => {
    const { router } = await setup();
    const chunks: unknown[] = [];
    for await (const chunk of router.tts({ text: 'Hi.', voice: 'agent', fromat: undefined } as never))
      chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(0);
  });
});
