/**
 * OpenAI's wire (PROTOCOLS.md 2.1-2.4), written here for the fault servers: error bodies, chat
 * chunks, speech and transcription SSE events, a WAV header. Shared by the HTTP and SSE
 * transports of the matrix.
 */

import { wavHeaderByHand } from '../../helpers/wav-header.js';
import { CHAT_DELTAS, STT_WORDS, TTS_FIRST, TTS_REST } from '../fixtures.js';
import type { Http1Script } from './http1.js';

/** `{"error":{message,type,param,code}}` (PROTOCOLS.md 2.1). */
export function openAiError(status: number): { headers: Record<string, string>; body: string } {
  const type = status === 429 ? 'rate_limit_exceeded' : 'server_error';
  return {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message: `status ${status}`, type, param: null, code: type } }),
  };
}

export const sse = (value: unknown): string =>
  `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;

/** A chat.completion.chunk (PROTOCOLS.md 2.2). */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return {
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** A 44-byte RIFF/WAVE header for PCM s16le mono at `sampleRate` with `dataBytes` of data. */
export function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  return wavHeaderByHand(sampleRate, dataBytes);
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Chat over SSE: two text deltas, finish, [DONE]; the malformed body's first frame is not JSON. */
export const chatSse: Http1Script = {
  contentType: 'text/event-stream',
  first: Buffer.from(
    sse(chatChunk({ role: 'assistant', content: '' })) + sse(chatChunk({ content: CHAT_DELTAS[0] })),
  ),
  rest: Buffer.from(sse(chatChunk({ content: CHAT_DELTAS[1] })) + sse(chatChunk({}, 'stop')) + sse('[DONE]')),
  malformed: Buffer.from(
    `data: {"id":"chatcmpl-fault","choices":[{"delta":{"content":"Hel\n\n${sse('[DONE]')}`,
  ),
  error: openAiError,
};

/** TTS over SSE (`stream_format: "sse"`, PROTOCOLS.md 2.3): base64 PCM deltas, then done. */
export const ttsSse: Http1Script = {
  contentType: 'text/event-stream',
  first: Buffer.from(sse({ type: 'speech.audio.delta', audio: b64(TTS_FIRST) })),
  rest: Buffer.from(
    sse({ type: 'speech.audio.delta', audio: b64(TTS_REST) }) +
      sse({ type: 'speech.audio.done', usage: { input_tokens: 3, output_tokens: 9, total_tokens: 12 } }),
  ),
  malformed: Buffer.from(`data: {"type":"speech.audio.delta","audio":\n\n`),
  error: openAiError,
};

/** STT over SSE (PROTOCOLS.md 2.4): one delta per word, then done with the whole text. */
export const sttSse: Http1Script = {
  contentType: 'text/event-stream',
  first: Buffer.from(sse({ type: 'transcript.text.delta', delta: STT_WORDS[0] })),
  rest: Buffer.from(
    sse({ type: 'transcript.text.delta', delta: ` ${STT_WORDS[1]}` }) +
      sse({ type: 'transcript.text.done', text: STT_WORDS.join(' ') }),
  ),
  malformed: Buffer.from(`data: {"type":"transcript.text.delta","delta":\n\n`),
  error: openAiError,
};

/** TTS as a streamed WAV body (`response_format: "wav"`); the malformed one is a cut header. */
export const ttsWav: Http1Script = {
  contentType: 'audio/wav',
  first: Buffer.concat([wavHeader(24_000, TTS_FIRST.byteLength + TTS_REST.byteLength), TTS_FIRST]),
  rest: Buffer.from(TTS_REST),
  malformed: wavHeader(24_000, TTS_FIRST.byteLength + TTS_REST.byteLength).subarray(0, 20),
  error: openAiError,
};

/** STT as one JSON transcript (`stream` not asked); the malformed body is not JSON. */
export const sttJson: Http1Script = {
  contentType: 'application/json',
  first: Buffer.from(`{"text":"${STT_WORDS[0]}`),
  rest: Buffer.from(` ${STT_WORDS[1]}"}`),
  malformed: Buffer.from(`{"text":"${STT_WORDS[0]}`),
  error: openAiError,
  streamsOutput: false,
};
