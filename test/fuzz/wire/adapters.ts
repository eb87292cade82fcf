/**
 * Every adapter the fuzz harness mutates: its valid answer as frames (PROTOCOLS.md), how those
 * are written (SSE, WebSocket text, event stream, raw body), the server that speaks it, the
 * provider config that reaches that server, and what the caller receives from the valid answer.
 */

import { pcmSignal } from '../../cases/wire/servers.js';
import type { Scope } from '../../faults/wire/scope.js';
import { payloadPart } from '../../reliability/wire/event-stream.js';
import type { Frame, Wire } from './answer.js';
import { h2Provider, httpProvider, type Slot, wsProvider } from './servers.js';

export type Cap = 'tts' | 'stt' | 'chat';

/** The fake key of every keyed provider (long and unusual, so any leak is plain to see). */
export const KEY = 'sk-test-fuzz-not-a-real-key-7c1d9e2f';
/** SageMaker's fake credentials. */
export const AWS = {
  accessKeyId: 'test-access-key-id',
  secretAccessKey: 'fuzz-not-a-real-secret/EXAMPLEKEY7c1d9e2f4a6b',
};

/** The primary's audio (PCM s16le mono 24 kHz) in three pieces of whole samples. */
export const PCM = pcmSignal(720, 24_000, 5);
export const PCM_PIECES = [PCM.subarray(0, 480), PCM.subarray(480, 960), PCM.subarray(960)] as const;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** One adapter under fuzz. */
export interface FuzzAdapter {
  name: string;
  cap: Cap;
  wire: Wire;
  frames: Frame[];
  /** What the caller receives from the valid answer (see run.ts `describeOutput`). */
  valid: string;
  /** Starts the server on `slot`; the provider config that reaches it. */
  start(scope: Scope, slot: Slot): Promise<Record<string, unknown>>;
  /** The secret the echo mutation puts in the answer, and every secret that must never show. */
  secrets: readonly string[];
}

const sse = (frame: Frame) =>
  Buffer.from(`data: ${frame.raw ? frame.raw.toString() : JSON.stringify(frame.json)}\n\n`);
const anthropicSse = (frame: Frame) => {
  const type = (frame.json as { type?: unknown } | undefined)?.type;
  return Buffer.from(
    `event: ${typeof type === 'string' ? type : 'message'}\ndata: ${JSON.stringify(frame.json)}\n\n`,
  );
};
const text = (frame: Frame) => (frame.raw ? Buffer.from(frame.raw) : Buffer.from(JSON.stringify(frame.json)));
const jsonLine = (frame: Frame) => Buffer.from(`${JSON.stringify(frame.json)}\n`);
const raw = (frame: Frame) => Buffer.from(frame.raw ?? JSON.stringify(frame.json));
const inPart = (inner: (frame: Frame) => Buffer) => (frame: Frame) => payloadPart(inner(frame));

function chatChunk(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: 'chatcmpl-fuzz',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

const CHAT_FRAMES: Frame[] = [
  { json: chatChunk({ role: 'assistant', content: '' }) },
  { json: chatChunk({ content: 'Hello' }) },
  { json: chatChunk({ content: ' wörld 👋' }) },
  { json: chatChunk({}, 'stop') },
  { raw: Buffer.from('[DONE]') },
];
const CHAT_VALID = 'text "Hello wörld 👋" finish ["stop"]';
const chatModels = { chat: { models: { fast: 'm' } } };

/** OpenAI's in-stream error (PROTOCOLS.md 2.1). */
const OPENAI_ERROR: Frame = {
  json: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } },
};
/** Cartesia's error event (PROTOCOLS.md 1.1). */
const CARTESIA_ERROR: Frame = {
  json: {
    type: 'error',
    context_id: '@@CTX@@',
    done: true,
    status_code: 500,
    error_code: null,
    title: 'Internal error',
    message: 'generation failed',
    request_id: 'r1',
  },
};

/** Cartesia STT's error message (PROTOCOLS.md 1.6). */
const CARTESIA_STT_ERROR: Frame = {
  json: {
    type: 'error',
    status_code: 500,
    title: 'Internal',
    message: 'failed',
    error_code: 'x',
    request_id: 'r1',
  },
};

const sseWire = (ends: number[], encode = sse, error: Frame = OPENAI_ERROR): Wire => ({
  encode,
  ends,
  error,
  slack: 2,
  discriminators: ['type', 'choices.0.finish_reason'],
  messages: false,
});

const ttsVoices = { voices: { agent: 'v' } };

/** A SageMaker STT answer in JSON lines (raw-pcm codec), on the response stream or the bidirectional one. */
const SAGEMAKER_STT_ANSWER = {
  wire: {
    encode: inPart(jsonLine),
    ends: [2],
    // The end is `{"type":"done"}` or a clean end of the body (docs/providers.md, SageMaker).
    cleanEnd: true,
    discriminators: ['type'],
    messages: false,
    eventStream: true,
    error: OPENAI_ERROR,
  },
  frames: [
    { json: { type: 'final', text: 'hello', start: 0, end: 0.02 } },
    { json: { type: 'final', text: 'wörld', start: 0.02, end: 0.04 } },
    { json: { type: 'done' } },
  ],
  valid: 'transcript ["final hello","final wörld"]',
} satisfies Pick<FuzzAdapter, 'wire' | 'frames' | 'valid'>;

export const ADAPTERS: readonly FuzzAdapter[] = [
  {
    name: 'openai chat (SSE)',
    cap: 'chat',
    wire: sseWire([3, 4]),
    frames: CHAT_FRAMES,
    valid: CHAT_VALID,
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return { kind: 'openai', baseUrl: `${url}/v1`, apiKey: KEY, ...chatModels };
    },
  },
  {
    name: 'openai-compatible chat (SSE, usage chunk)',
    cap: 'chat',
    wire: sseWire([3, 5]),
    frames: [
      ...CHAT_FRAMES.slice(0, 4),
      {
        json: {
          id: 'chatcmpl-fuzz',
          object: 'chat.completion.chunk',
          created: 1_700_000_000,
          model: 'm',
          choices: [],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        },
      },
      { raw: Buffer.from('[DONE]') },
    ],
    valid: CHAT_VALID,
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return { kind: 'openai-compatible', baseUrl: `${url}/v1`, apiKey: KEY, ...chatModels };
    },
  },
  {
    name: 'anthropic chat (SSE)',
    cap: 'chat',
    wire: sseWire([6], anthropicSse, {
      json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    }),
    frames: [
      {
        json: {
          type: 'message_start',
          message: {
            id: 'msg_fuzz',
            type: 'message',
            role: 'assistant',
            model: 'claude-x',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 1 },
          },
        },
      },
      { json: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { json: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } } },
      { json: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' wörld 👋' } } },
      { json: { type: 'content_block_stop', index: 0 } },
      {
        json: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: 2 },
        },
      },
      { json: { type: 'message_stop' } },
    ],
    valid: CHAT_VALID,
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return { kind: 'anthropic', baseUrl: url, apiKey: KEY, chat: { models: { fast: 'claude-x' } } };
    },
  },
  {
    name: 'openai tts (raw PCM body)',
    cap: 'tts',
    wire: { encode: raw, ends: [], discriminators: [], messages: false },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/octet-stream');
      return { kind: 'openai', baseUrl: `${url}/v1`, apiKey: KEY, tts: { voices: { agent: 'alloy' } } };
    },
  },
  {
    name: 'openai-compatible tts (SSE speech.audio.delta)',
    cap: 'tts',
    wire: sseWire([3]),
    frames: [
      ...PCM_PIECES.map((p) => ({
        json: { type: 'speech.audio.delta', audio: b64(p) },
        audioField: 'audio',
      })),
      { json: { type: 'speech.audio.done', usage: { input_tokens: 3, output_tokens: 9, total_tokens: 12 } } },
    ],
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return {
        kind: 'openai-compatible',
        baseUrl: `${url}/v1`,
        apiKey: KEY,
        tts: { ...ttsVoices, streamFormat: 'sse' },
      };
    },
  },
  {
    name: 'openai stt (SSE transcript.text.*)',
    cap: 'stt',
    wire: sseWire([2]),
    frames: [
      { json: { type: 'transcript.text.delta', delta: 'hello' } },
      { json: { type: 'transcript.text.delta', delta: ' wörld' } },
      { json: { type: 'transcript.text.done', text: 'hello wörld' } },
    ],
    valid: 'transcript ["final hello wörld"]',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return { kind: 'openai', baseUrl: `${url}/v1`, apiKey: KEY, stt: { model: 'gpt-4o-mini-transcribe' } };
    },
  },
  {
    name: 'openai-compatible stt (one JSON transcript)',
    cap: 'stt',
    wire: { encode: text, ends: [0], discriminators: ['text'], messages: false },
    frames: [{ json: { text: 'hello wörld 👋' } }],
    valid: 'transcript ["final hello wörld 👋"]',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/json');
      return {
        kind: 'openai-compatible',
        baseUrl: `${url}/v1`,
        apiKey: KEY,
        stt: { model: 'whisper-1', streaming: false },
      };
    },
  },
  {
    name: 'cartesia tts /tts/bytes',
    cap: 'tts',
    wire: { encode: raw, ends: [], discriminators: [], messages: false },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/octet-stream');
      return { kind: 'cartesia', baseUrl: url, apiKey: KEY, tts: { ...ttsVoices, transport: 'bytes' } };
    },
  },
  {
    name: 'cartesia tts /tts/sse',
    cap: 'tts',
    wire: sseWire([4], sse, CARTESIA_ERROR),
    frames: [
      {
        json: { type: 'chunk', data: b64(PCM_PIECES[0]), done: false, status_code: 206 },
        audioField: 'data',
      },
      {
        json: {
          type: 'timestamps',
          word_timestamps: { words: ['Hello'], start: [0], end: [0.02] },
          done: false,
          status_code: 206,
        },
      },
      {
        json: { type: 'chunk', data: b64(PCM_PIECES[1]), done: false, status_code: 206 },
        audioField: 'data',
      },
      {
        json: { type: 'chunk', data: b64(PCM_PIECES[2]), done: false, status_code: 206 },
        audioField: 'data',
      },
      { json: { type: 'done', done: true, status_code: 200 } },
    ],
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'text/event-stream');
      return { kind: 'cartesia', baseUrl: url, apiKey: KEY, tts: { ...ttsVoices, transport: 'sse' } };
    },
  },
  {
    name: 'cartesia tts /tts/websocket',
    cap: 'tts',
    wire: {
      encode: text,
      ends: [4],
      discriminators: ['type', 'done'],
      messages: true,
      keepOpen: true,
      error: CARTESIA_ERROR,
    },
    frames: [
      ...PCM_PIECES.map((p) => ({
        json: { type: 'chunk', context_id: '@@CTX@@', data: b64(p), done: false, status_code: 206 },
        audioField: 'data',
      })),
      {
        json: {
          type: 'timestamps',
          context_id: '@@CTX@@',
          word_timestamps: { words: ['Hello', 'there.'], start: [0, 0.01], end: [0.01, 0.03] },
          done: false,
          status_code: 206,
        },
      },
      { json: { type: 'done', context_id: '@@CTX@@', done: true, status_code: 200 } },
    ],
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await wsProvider(
        scope,
        s,
        (t) => t !== undefined && /"transcript":"[^"]/.test(t),
        (t) => String((JSON.parse(t) as { context_id: unknown }).context_id),
      );
      return {
        kind: 'cartesia',
        baseUrl: url,
        apiKey: KEY,
        tts: { ...ttsVoices, transport: 'websocket', keepWarmMs: 3_600_000 },
      };
    },
  },
  {
    name: 'cartesia stt /stt/websocket',
    cap: 'stt',
    wire: {
      encode: text,
      ends: [2],
      discriminators: ['type', 'is_final'],
      messages: true,
      error: CARTESIA_STT_ERROR,
    },
    frames: [
      {
        json: {
          type: 'transcript',
          request_id: 'r1',
          text: 'hello',
          is_final: true,
          duration: 0.02,
          words: [{ word: 'hello', start: 0, end: 0.02 }],
        },
      },
      {
        json: {
          type: 'transcript',
          request_id: 'r1',
          text: ' world',
          is_final: true,
          duration: 0.04,
          words: [{ word: 'world', start: 0.02, end: 0.04 }],
        },
      },
      { json: { type: 'flush_done', request_id: 'r1' } },
      { json: { type: 'done', request_id: 'r1' } },
    ],
    valid: 'transcript ["final hello","final  world"]',
    secrets: [KEY],
    async start(scope, s) {
      const url = await wsProvider(scope, s, (t) => t === 'finalize');
      return { kind: 'cartesia', baseUrl: url, apiKey: KEY, stt: { model: 'ink-whisper' } };
    },
  },
  {
    name: 'deepgram stt /v1/listen',
    cap: 'stt',
    wire: { encode: text, ends: [2], discriminators: ['type', 'is_final'], messages: true },
    frames: [
      {
        json: {
          type: 'Results',
          start: 0,
          duration: 0.02,
          is_final: true,
          speech_final: false,
          channel: {
            alternatives: [
              {
                transcript: 'hello',
                confidence: 0.9,
                words: [{ word: 'hello', start: 0, end: 0.02, confidence: 0.9 }],
              },
            ],
          },
        },
      },
      {
        json: {
          type: 'Results',
          start: 0.02,
          duration: 0.02,
          is_final: true,
          speech_final: true,
          channel: {
            alternatives: [
              {
                transcript: 'world',
                confidence: 0.9,
                words: [{ word: 'world', start: 0.02, end: 0.04, confidence: 0.9 }],
              },
            ],
          },
        },
      },
      {
        json: {
          type: 'Metadata',
          request_id: 'r1',
          sha256: 'x',
          created: '2026-01-01T00:00:00Z',
          duration: 0.05,
          channels: 1,
        },
      },
    ],
    valid: 'transcript ["final hello","final world"]',
    secrets: [KEY],
    async start(scope, s) {
      const url = await wsProvider(scope, s, (t) => t?.includes('CloseStream') === true);
      return { kind: 'deepgram', baseUrl: url, apiKey: KEY, stt: { model: 'nova-3' } };
    },
  },
  {
    name: 'deepgram tts /v1/speak',
    cap: 'tts',
    wire: { encode: raw, ends: [], discriminators: [], messages: false },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'audio/l16;rate=24000');
      return { kind: 'deepgram', baseUrl: url, apiKey: KEY, tts: ttsVoices };
    },
  },
  {
    name: 'elevenlabs tts HTTP stream',
    cap: 'tts',
    wire: { encode: raw, ends: [], discriminators: [], messages: false },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'audio/pcm');
      return { kind: 'elevenlabs', baseUrl: url, apiKey: KEY, tts: { ...ttsVoices, transport: 'http' } };
    },
  },
  {
    name: 'elevenlabs tts stream-input WebSocket',
    cap: 'tts',
    wire: {
      encode: text,
      ends: [3],
      discriminators: ['isFinal'],
      messages: true,
      error: { json: { message: 'Internal server error', error: 'internal_error', code: 1011 } },
    },
    frames: [
      {
        json: {
          audio: b64(PCM_PIECES[0]),
          isFinal: false,
          normalizedAlignment: { charStartTimesMs: [0, 3], charDurationsMs: [3, 4], chars: ['H', 'e'] },
        },
        audioField: 'audio',
      },
      { json: { audio: b64(PCM_PIECES[1]), isFinal: false }, audioField: 'audio' },
      { json: { audio: b64(PCM_PIECES[2]), isFinal: false }, audioField: 'audio' },
      { json: { isFinal: true } },
    ],
    valid: 'primary audio',
    secrets: [KEY],
    async start(scope, s) {
      const url = await wsProvider(scope, s, (t) => t !== undefined && /"text":""/.test(t));
      return { kind: 'elevenlabs', baseUrl: url, apiKey: KEY, tts: { ...ttsVoices, transport: 'websocket' } };
    },
  },
  {
    name: 'sagemaker tts response stream (raw-pcm)',
    cap: 'tts',
    wire: { encode: inPart(raw), ends: [], discriminators: [], messages: false, eventStream: true },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, {
        tts: { ...ttsVoices, payload: 'raw-pcm', sampleRate: 24_000, stream: 'response' },
      });
    },
  },
  {
    name: 'sagemaker tts response stream (cartesia codec, JSON lines)',
    cap: 'tts',
    wire: {
      encode: inPart(jsonLine),
      ends: [3],
      discriminators: ['type', 'done'],
      messages: false,
      eventStream: true,
      error: CARTESIA_ERROR,
    },
    frames: [
      ...PCM_PIECES.map((p) => ({ json: { type: 'chunk', data: b64(p), done: false }, audioField: 'data' })),
      { json: { type: 'done', done: true } },
    ],
    valid: 'primary audio',
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, {
        tts: { ...ttsVoices, payload: 'cartesia', sampleRate: 24_000, stream: 'response' },
      });
    },
  },
  {
    name: 'sagemaker chat response stream (openai-chat)',
    cap: 'chat',
    wire: {
      encode: inPart(sse),
      ends: [3, 4],
      discriminators: ['choices.0.finish_reason'],
      messages: false,
      eventStream: true,
      error: OPENAI_ERROR,
    },
    frames: CHAT_FRAMES,
    valid: CHAT_VALID,
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, { chat: { models: { fast: 'default' }, payload: 'openai-chat' } });
    },
  },
  {
    name: 'sagemaker stt response stream (raw-pcm, JSON lines)',
    cap: 'stt',
    ...SAGEMAKER_STT_ANSWER,
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await httpProvider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, { stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'response' } });
    },
  },
  {
    name: 'sagemaker tts bidirectional stream (raw-pcm, h2c)',
    cap: 'tts',
    wire: { encode: inPart(raw), ends: [], discriminators: [], messages: false, eventStream: true },
    frames: PCM_PIECES.map((p) => ({ raw: Buffer.from(p) })),
    valid: 'primary audio',
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await h2Provider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, {
        tts: { ...ttsVoices, payload: 'raw-pcm', sampleRate: 24_000, stream: 'bidirectional' },
      });
    },
  },
  {
    name: 'sagemaker stt bidirectional stream (raw-pcm, h2c)',
    cap: 'stt',
    ...SAGEMAKER_STT_ANSWER,
    secrets: [AWS.secretAccessKey, AWS.accessKeyId],
    async start(scope, s) {
      const url = await h2Provider(scope, s, 'application/vnd.amazon.eventstream');
      return sageMaker(url, { stt: { payload: 'raw-pcm', sampleRate: 16_000, stream: 'bidirectional' } });
    },
  },
];

function sageMaker(url: string, section: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'sagemaker',
    region: 'us-east-1',
    endpointName: 'voice',
    endpointUrl: url,
    credentials: AWS,
    ...section,
  };
}
