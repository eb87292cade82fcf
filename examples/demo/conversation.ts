/**
 * A conversation of several turns through `voiceTurn()`: for each line the caller "says", one
 * turn (stt -> chat -> tts), the reply appended to the history for the next turn.
 */
import type { AudioFormat, ChatMessage, Router, TurnResult } from 'voxroute';
import { voiceTurn } from 'voxroute';

/** One turn of the conversation as the demo reports it. */
export interface ConversationTurn {
  /** The turn's number in the conversation, from 1. */
  turn: number;
  result: TurnResult;
  /** The reply's audio, in the turn's output format. */
  audio: Uint8Array;
}

/** A turn that ended with an error (e.g. AllProvidersFailedError): no reply, the conversation goes on. */
export interface FailedTurn {
  /** The turn's number in the conversation, from 1. */
  turn: number;
  error: unknown;
}

/** What a conversation did: the turns that were answered, and those that failed. */
export interface Conversation {
  turns: ConversationTurn[];
  failed: FailedTurn[];
}

const FORMAT: AudioFormat = { encoding: 'pcm_s16le', sampleRate: 16_000, channels: 1 };
const SYSTEM = 'You are a restaurant booking agent. Answer in one or two short sentences.';

/**
 * Runs one turn per entry of `audios` (the caller's audio of each turn, PCM s16le 16 kHz). A
 * turn that fails is listed in `failed` (its line is left out of the history) and the
 * conversation goes on, as a voice agent would say "sorry?" rather than hang up.
 */
export async function runConversation(
  router: Router,
  audios: Uint8Array[],
  options: { budgetMs?: number } = {},
): Promise<Conversation> {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  const turns: ConversationTurn[] = [];
  const failed: FailedTurn[] = [];
  for (const [k, pcm] of audios.entries()) {
    const turn = voiceTurn(router, {
      audio: pieces(pcm, 640),
      format: FORMAT,
      messages,
      model: 'fast',
      voice: 'agent',
      ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    });
    const audio: Uint8Array[] = [];
    try {
      for await (const event of turn) if (event.type === 'audio') audio.push(event.chunk.data);
    } catch (error) {
      failed.push({ turn: k + 1, error });
      continue;
    }
    const result = await turn.result;
    messages.push({ role: 'user', content: result.transcript }, { role: 'assistant', content: result.reply });
    turns.push({ turn: k + 1, result, audio: Buffer.concat(audio) });
  }
  return { turns, failed };
}

/** The caller's audio in 20 ms pieces, as a microphone sends it. */
async function* pieces(pcm: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < pcm.byteLength; i += size) yield pcm.subarray(i, i + size);
}
