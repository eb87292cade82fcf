/**
 * A conversation of several turns through `voiceTurn()`: for each line the caller "says", one
 * turn (stt -> chat -> tts), the reply appended to the history for the next turn.
 */
import type { AudioFormat, ChatMessage, Router, TurnResult } from 'voxroute';
import { voiceTurn } from 'voxroute';

/** One turn of the conversation as the demo reports it. */
export interface ConversationTurn {
  result: TurnResult;
  /** The reply's audio, in the turn's output format. */
  audio: Uint8Array;
}

const FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
const SYSTEM = 'You are a restaurant booking agent. Answer in one or two short sentences.';

/** Runs one turn per entry of `audios` (the caller's audio of each turn, PCM s16le 16 kHz). */
export async function runConversation(
  router: Router,
  audios: Uint8Array[],
  options: { budgetMs?: number } = {},
): Promise<ConversationTurn[]> {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  const turns: ConversationTurn[] = [];
  for (const pcm of audios) {
    const turn = voiceTurn(router, {
      audio: pieces(pcm, 640),
      format: FORMAT,
      messages,
      model: 'fast',
      voice: 'agent',
      ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    });
    const audio: Uint8Array[] = [];
    for await (const event of turn) if (event.type === 'audio') audio.push(event.chunk.data);
    const result = await turn.result;
    messages.push({ role: 'user', content: result.transcript }, { role: 'assistant', content: result.reply });
    turns.push({ result, audio: Buffer.concat(audio) });
  }
  return turns;
}

/** The caller's audio in 20 ms pieces, as a microphone sends it. */
async function* pieces(pcm: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < pcm.byteLength; i += size) yield pcm.subarray(i, i + size);
}
