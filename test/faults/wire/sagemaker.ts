/**
 * SageMaker Runtime's wire (PROTOCOLS.md 5), written here for the fault servers: PayloadPart
 * event-stream messages (framing from test/reliability/wire/event-stream.ts, not the SDK's
 * codec) carrying each codec's bytes, and error answers typed by `x-amzn-errortype`.
 */
import { payloadPart } from '../../reliability/wire/event-stream.js';
import { CHAT_DELTAS, STT_WORDS, TTS_FIRST, TTS_PRIMARY, TTS_REST } from '../fixtures.js';
import type { Cap } from '../matrix.js';
import type { Http1Script } from './http1.js';
import { chatChunk, sse } from './openai.js';

/** The modeled error of each status (PROTOCOLS.md 5.4): header type and `{message}` body. */
const ERROR_TYPE: Record<number, string> = {
  429: 'ModelNotReadyException',
  500: 'InternalFailure',
  503: 'ServiceUnavailable',
};

export function sageMakerError(status: number): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      'content-type': 'application/json',
      'x-amzn-errortype': ERROR_TYPE[status] ?? 'InternalFailure',
    },
    body: JSON.stringify({ message: `status ${status}` }),
  };
}

const part = (text: string) => payloadPart(Buffer.from(text));

/** The PayloadParts of each capability's codec: raw PCM, transcript JSON lines, OpenAI chat SSE. */
const PARTS: Record<Cap, { first: Buffer; rest: Buffer; malformed: Buffer }> = {
  tts: {
    first: payloadPart(TTS_FIRST),
    rest: payloadPart(TTS_REST),
    malformed: payloadPart(TTS_PRIMARY, true),
  },
  stt: {
    first: part(`${JSON.stringify({ type: 'final', text: STT_WORDS[0] })}\n`),
    rest: part(
      `${JSON.stringify({ type: 'final', text: STT_WORDS[1] })}\n${JSON.stringify({ type: 'done' })}\n`,
    ),
    malformed: payloadPart(Buffer.from(`${JSON.stringify({ type: 'final', text: STT_WORDS[0] })}\n`), true),
  },
  chat: {
    first: part(
      sse(chatChunk({ role: 'assistant', content: '' })) + sse(chatChunk({ content: CHAT_DELTAS[0] })),
    ),
    rest: part(sse(chatChunk({ content: CHAT_DELTAS[1] })) + sse(chatChunk({}, 'stop')) + sse('[DONE]')),
    malformed: payloadPart(Buffer.from(sse(chatChunk({ content: CHAT_DELTAS[0] }))), true),
  },
};

/** The script of `cap` on the response stream (HTTP/1.1, application/vnd.amazon.eventstream). */
export function sageMakerScript(cap: Cap): Http1Script {
  return { contentType: 'application/vnd.amazon.eventstream', ...PARTS[cap], error: sageMakerError };
}

const credentials = { accessKeyId: 'AKIDFAULTMATRIX', secretAccessKey: 'fault-matrix-secret-key' };

/** A `sagemaker` provider of `cap` at `url`, over the response or the bidirectional stream. */
export function sageMakerProvider(
  cap: Cap,
  url: string,
  stream: 'response' | 'bidirectional',
): Record<string, unknown> {
  const base = {
    kind: 'sagemaker',
    region: 'us-east-1',
    endpointName: 'voice',
    endpointUrl: url,
    credentials,
  };
  if (cap === 'tts')
    return { ...base, tts: { voices: { agent: 'v' }, payload: 'raw-pcm', sampleRate: 24_000, stream } };
  if (cap === 'stt') return { ...base, stt: { payload: 'raw-pcm', sampleRate: 16_000, stream } };
  return { ...base, chat: { models: { fast: 'default' }, payload: 'openai-chat' } };
}
