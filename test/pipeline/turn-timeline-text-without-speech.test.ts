/**
 * A voice turn's timeline around reply text the TTS provider is not given at once:
 * - a reply that opens with text with nothing to speak ("...", a code fence line) and thinks before
 *   its first words: `firstClauseMs` was set at that text, although the provider had nothing to
 *   speak, and `ownMs` counted the LLM's time from its first token to its first words as
 *   voxroute's own (tts() starts no attempt before its text has something to speak, and that
 *   wait was taken off the TTS's time);
 * - a reply whose first words are held for the next token and spoken once the LLM pauses (400 ms
 *   without a token, here before a tool call): `firstClauseMs` came only when the reply ended,
 *   after `firstAudioMs`.
 * The server speaks OpenAI's wire on its own (loopback node:http).
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type TurnResult, voiceTurn } from '../../src/index.js';
import { HELD_TEXT_FLUSH_MS } from '../../src/routing/tts-progress.js';
import { pcmSignal } from '../cases/wire/servers.js';
import {
  answerSpeech,
  answerTranscript,
  CHAT_END,
  chatFrame,
  speechInput,
  turnRouter,
  turnWire,
} from './turn-wire.js';

const FORMAT = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 } as const;
/** How long the LLM thinks (ms) in the middle of its reply. */
const THINK_MS = 400;

async function* microphone(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(3_200).fill(1);
}

/** One step of the chat server's reply: a text delta, a pause (ms), or a tool call. */
type Step = string | number | { tool: string };

/** A turn whose STT hears "Book a table" and whose chat streams `steps`; each speech request gets 0.1 s of audio. */
async function turnWith(steps: Step[]): Promise<{ result: TurnResult; inputs: string[] }> {
  const wire = await turnWire(async (req, res: ServerResponse) => {
    if (req.path.endsWith('/audio/transcriptions')) return answerTranscript(res, 'Book a table');
    if (req.path.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatFrame({ role: 'assistant', content: '' }));
      let finish = 'stop';
      for (const step of steps) {
        if (typeof step === 'number') await new Promise((resolve) => setTimeout(resolve, step));
        else if (typeof step === 'string') res.write(chatFrame({ content: step }));
        else {
          finish = 'tool_calls';
          const call = {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: step.tool, arguments: '{}' },
          };
          res.write(chatFrame({ tool_calls: [call] }));
        }
      }
      res.end(finish === 'stop' ? CHAT_END : `${chatFrame({}, finish)}data: [DONE]\n\n`);
      return;
    }
    answerSpeech(res, pcmSignal(2_400, 24_000, 2));
  });
  const router = turnRouter(wire.url);
  await router.warmup();
  const turn = voiceTurn(router, {
    audio: microphone(),
    format: FORMAT,
    messages: [],
    model: 'f',
    voice: 'v',
  });
  for await (const _event of turn) {
    // play it
  }
  const inputs = wire.requests.filter((r) => r.path.endsWith('/audio/speech')).map(speechInput);
  return { result: await turn.result, inputs };
}

describe('voiceTurn timeline: reply text the TTS provider is not given at once', () => {
  for (const lead of ['...', '```\n']) {
    it(`a reply opening with ${JSON.stringify(lead)}: the first clause is the first words, the LLM's thinking is no time of voxroute's`, async () => {
      const { result, inputs } = await turnWith([lead, THINK_MS, 'Let me check', ' that for you.']);
      expect(inputs).toEqual(['Let me check that for you.']);
      const t = result.timeline;
      // Half of it at least: the first token may reach the turn late on a loaded machine.
      expect(t.firstClauseMs! - t.firstTokenMs!).toBeGreaterThanOrEqual(THINK_MS / 2);
      expect(t.firstAudioMs!).toBeGreaterThanOrEqual(t.firstClauseMs!);
      expect(t.ownMs).toBeLessThan(THINK_MS / 2);
    });
  }

  it('words held for the next token, spoken when the LLM pauses before a tool call: the first clause comes before the first audio', async () => {
    const { result, inputs } = await turnWith([
      'Let me',
      ' look that',
      ' up',
      HELD_TEXT_FLUSH_MS + THINK_MS,
      { tool: 'find_table' },
    ]);
    // "up" may go on ("upstairs"): the words before it are spoken at the pause, "up" at the end.
    expect(inputs).toEqual(['Let me look that', 'up']);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['find_table']);
    const t = result.timeline;
    expect(t.firstClauseMs! - t.firstTokenMs!).toBeGreaterThanOrEqual(HELD_TEXT_FLUSH_MS);
    expect(t.firstClauseMs!).toBeLessThanOrEqual(t.firstAudioMs!);
  });
});
