/**
 * The conversation demo's two "EC2" servers: the testing kit's OpenAI-compatible mocks on free
 * loopback ports, each serving stt, chat and tts with scripted latency. `ec2-a` starts as the
 * fastest at every stage and then goes wrong partway: its chat stops answering after its first
 * call (the budget's deadline moves the turn to ec2-b), its transcription fails with
 * 503 from its second call, and its speech resets in the middle of its third request.
 */
import {
  type CallContext,
  type ChatReply,
  createOpenAiCompatibleMock,
  type MockScript,
  startMockServer,
} from 'voxroute/testing';

/** What the caller says in each turn, and what the model answers. */
export const SCRIPT = [
  {
    said: 'Hi, I would like a table for two tonight.',
    reply: 'Of course, for what time? We have tables at seven and at nine.',
  },
  { said: 'Seven please.', reply: 'Done, a table for two at seven. Can I have a name for the booking?' },
  { said: 'Alex.', reply: 'Thank you, Alex, you are booked for seven. Anything else?' },
  { said: 'No, that is all.', reply: 'Great, see you tonight, and have a nice day!' },
] as const;

/** Running servers: base URLs of ec2-a and ec2-b. */
export interface ConversationServers {
  baseUrls: [string, string];
  /** Restarts the scripts (call numbers from 1), e.g. after a warm-up turn. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * The caller's audio of turn `k` (0-based): 200 ms of PCM s16le 16 kHz whose samples all hold
 * `k + 1`, so the mock transcription knows which line was "said".
 */
export function turnAudio(k: number): Uint8Array {
  const pcm = new Uint8Array(6400);
  for (let i = 0; i < pcm.length; i += 2) pcm[i] = k + 1;
  return pcm;
}

/** Starts both servers on free ports. */
export async function startConversationServers(): Promise<ConversationServers> {
  // The uploaded file ends with a sample of the turn's audio (see turnAudio).
  const transcript = ({ audio }: { audio: Uint8Array }) =>
    SCRIPT[(audio[audio.length - 2] ?? 1) - 1]?.said ?? '';
  const chat = ({ request }: CallContext): ChatReply => {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    const said = messages.filter((m) => m.role === 'user').at(-1)?.content;
    const reply = SCRIPT.find((l) => l.said === said)?.reply ?? 'Sorry?';
    return { deltas: [...(reply.match(/\S+\s*/g) ?? [reply])] };
  };
  const a = createOpenAiCompatibleMock({
    transcript,
    chat,
    script: {
      // Transcription fails from its second call on.
      transcription: ({ call }): MockScript =>
        call >= 2 ? { failTimes: Number.MAX_SAFE_INTEGER, failStatus: 503 } : { headersDelayMs: 30 },
      // Chat answers in 40 ms at first, then not at all (headers, no token): the turn's budget
      // gives it a first-chunk deadline and ec2-b takes over. Its one fast sample keeps it the
      // first choice for its second call, so the turn that meets the silence is always shown.
      chat: ({ call }): MockScript =>
        call === 1 ? { headersDelayMs: 40, chunkGapMs: 4 } : { stallAfterChunks: 0 },
      // Speech resets after two chunks of its third request (mid-reply: TTS resumes on ec2-b).
      speech: ({ call }): MockScript =>
        call === 3 ? { headersDelayMs: 30, resetAfterChunks: 2 } : { headersDelayMs: 30 },
    },
  });
  const b = createOpenAiCompatibleMock({
    transcript,
    chat,
    script: {
      transcription: { headersDelayMs: 60 },
      chat: { headersDelayMs: 90, chunkGapMs: 4 },
      speech: { headersDelayMs: 70 },
    },
  });
  const sa = await startMockServer({ provider: a });
  const sb = await startMockServer({ provider: b }).catch(async (error: unknown) => {
    await sa.close();
    throw error;
  });
  return {
    baseUrls: [`${sa.url}/v1`, `${sb.url}/v1`],
    reset: () => {
      a.reset();
      b.reset();
    },
    close: async () => void (await Promise.all([sa.close(), sb.close()])),
  };
}
