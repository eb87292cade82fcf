import { describe, expect, it } from 'vitest';
import type { AudioChunk } from '../../../src/index.js';
import {
  createElevenLabsMock,
  type ElevenLabsSocketScript,
  mockElevenLabsAudio,
  mockSpeechPcm,
} from '../../../src/testing/index.js';
import { PCM24, startWithBackup, llmTokens as tokens } from '../../helpers/streamed-tts.js';
import { expectSameBytes } from './helpers.js';

const KEY = 'xi-router-key-streamed-1';
/** What the router hands the stream-input socket, generation by generation (clause, then a space). */
const GEN1 = 'Sure, your table is booked for eight. ';
/**
 * The second generation within the first socket: the first clause goes at its full stop, so
 * the space before "See" comes with the next token, after the flush.
 */
const GEN2_CONTINUED = ' See you then. ';
/** Raw audio bytes per stream-input message (the mock's default chunk). */
const CHUNK = 4800;

/** ElevenLabs over stream-input first, an OpenAI-compatible backup second; midStream 'resume'. */
async function setup(streamInput?: ElevenLabsSocketScript[]) {
  const {
    router,
    primary: eleven,
    ec2,
  } = await startWithBackup({
    name: 'eleven',
    mock: createElevenLabsMock({ apiKey: KEY, ...(streamInput ? { script: { streamInput } } : {}) }),
    config: (url) => ({
      kind: 'elevenlabs',
      baseUrl: url,
      apiKey: KEY,
      tts: { transport: 'websocket', voices: { agent: 'voice-el' } },
    }),
  });
  const stream = router.tts({ text: tokens(), voice: 'agent', format: PCM24 });
  const chunks: AudioChunk[] = [];
  for await (const c of stream) chunks.push(c);
  const result = await stream.result;
  const bytes = (from = 0, to?: number) =>
    Buffer.concat(chunks.slice(from, to).map((c) => Buffer.from(c.data)));
  const switches = chunks.flatMap((c, i) => (c.discontinuity ? [i] : []));
  const inputs = ec2.requests.map((r) => (r.body as { input: string }).input);
  return { eleven, inputs, result, bytes, switches };
}

describe('tts() with streamed text through the router onto ElevenLabs stream-input (loopback)', () => {
  it('LLM tokens go into one stream-input socket, a flush at each clause end; exact messages and bytes', async () => {
    const { eleven, inputs, result, bytes, switches } = await setup();
    expect(result.provider).toBe('eleven');
    expect(eleven.sockets).toHaveLength(1);
    const socket = eleven.sockets[0]!;
    expect(socket.voiceId).toBe('voice-el');
    expect(socket.query).toEqual({ model_id: 'eleven_flash_v2_5', output_format: 'pcm_24000' });
    expect(socket.messages).toEqual([
      { text: ' ' },
      { text: GEN1, flush: true },
      { text: ' See you ' },
      { text: 'then. ', flush: true },
      { text: '' },
    ]);
    expect(socket.generations).toEqual([GEN1, GEN2_CONTINUED]);
    expectSameBytes(
      bytes(),
      Buffer.concat([mockElevenLabsAudio(GEN1, PCM24), mockElevenLabsAudio(GEN2_CONTINUED, PCM24)]),
    );
    expect(switches).toEqual([]);
    expect(inputs).toEqual([]);
  });

  it('the socket drops in the second clause: the backup speaks from the first text not yet heard', async () => {
    const gen1 = mockElevenLabsAudio(GEN1, PCM24);
    const gen2 = mockElevenLabsAudio(GEN2_CONTINUED, PCM24);
    // Every message of the first clause, then one of the second, then the connection drops.
    const heard = Math.ceil(gen1.byteLength / CHUNK) + 1;
    const { eleven, inputs, result, bytes, switches } = await setup([{ resetAfterChunks: heard }]);
    // The first clause was heard to its last word (by the alignment): only the second is spoken again.
    expect(inputs).toEqual(['See you then.']);
    expect(switches).toEqual([heard]);
    expectSameBytes(bytes(0, heard), Buffer.concat([gen1, gen2.subarray(0, CHUNK)]));
    expectSameBytes(bytes(heard), mockSpeechPcm('See you then.'));
    expect(eleven.sockets).toHaveLength(1);
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['eleven', 'failed'],
      ['ec2', 'success'],
    ]);
  });

  it('the socket drops in the first clause: the backup speaks it and the next clause; ElevenLabs is not asked again', async () => {
    const gen1 = mockElevenLabsAudio(GEN1, PCM24);
    const { eleven, inputs, result, bytes, switches } = await setup([{ resetAfterChunks: 2 }]);
    expect(inputs).toEqual(['Sure, your table is booked for eight.', 'See you then.']);
    expect(switches).toEqual([2]);
    expectSameBytes(bytes(0, 2), gen1.subarray(0, 2 * CHUNK));
    expectSameBytes(
      bytes(2),
      Buffer.concat([mockSpeechPcm('Sure, your table is booked for eight.'), mockSpeechPcm('See you then.')]),
    );
    expect(eleven.sockets).toHaveLength(1);
    expect(result.attempts.map((a) => [a.provider, a.outcome])).toEqual([
      ['eleven', 'failed'],
      ['ec2', 'success'],
    ]);
  });
});
