/**
 * Partial transcripts in a voice turn: the docs promised `transcript` events with partials,
 * but voiceTurn() called stt() without `interim`, so no provider sent any (each sends partials
 * only when asked) and the request had no field to ask. `interim: true` now gives the partials
 * before the final; the default stays finals only, and a non-boolean is a RequestError naming
 * it before any provider is contacted. Loopback OpenAI-compatible mock (streamed transcription).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RequestError, type Router, type TurnEvent, voiceTurn } from '../../src/index.js';
import { oneMockProviderRouter } from '../helpers/mock-providers.js';

const FORMAT = { encoding: 'pcm_s16le' as const, sampleRate: 16_000, channels: 1 as const };

async function* callerAudio(): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < 10; i++) yield new Uint8Array(640);
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(): Promise<{ router: Router; mock: { requests: readonly unknown[] } }> {
  const one = await oneMockProviderRouter('Book a table for two.', ['Sure.']);
  close = one.close;
  return { router: one.router, mock: { requests: one.requests } };
}

const request = (extra: Record<string, unknown> = {}) => ({
  audio: callerAudio(),
  format: FORMAT,
  messages: [],
  model: 'fast',
  voice: 'agent',
  ...extra,
});

/** The transcript events of a turn, as `type:text`. */
async function transcripts(router: Router, extra: Record<string, unknown>): Promise<string[]> {
  const turn = voiceTurn(router, request(extra) as never);
  const events: TurnEvent[] = [];
  for await (const event of turn) events.push(event);
  expect((await turn.result).transcript).toBe('Book a table for two.');
  return events.flatMap((e) => (e.type === 'transcript' ? [`${e.event.type}:${e.event.text}`] : []));
}

describe('voiceTurn({ interim })', () => {
  it('interim: true yields the partials, then the final', async () => {
    const { router } = await setup();
    const seen = await transcripts(router, { interim: true });
    expect(seen.at(-1)).toBe('final:Book a table for two.');
    const partials = seen.slice(0, -1);
    expect(partials.length).toBeGreaterThan(0);
    for (const partial of partials) {
      expect(partial.startsWith('partial:')).toBe(true);
      expect('Book a table for two.'.startsWith(partial.slice('partial:'.length).trim())).toBe(true);
    }
  });

  it('by default, the final only', async () => {
    const { router } = await setup();
    expect(await transcripts(router, {})).toEqual(['final:Book a table for two.']);
  });

  it('interim: "yes" is a RequestError naming interim; no provider is contacted', async () => {
    const { router, mock } = await setup();
    let caught: unknown;
    try {
      for await (const _ of voiceTurn(router, request({ interim: 'yes' }) as never)) {
        // nothing comes
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RequestError);
    expect((caught as RequestError).field).toBe('interim');
    expect(mock.requests).toEqual([]);
  });
});
