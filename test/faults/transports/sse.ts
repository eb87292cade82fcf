/** SSE transport: OpenAI-style event streams for chat, TTS (`stream_format: "sse"`) and STT. */

import type { Transport } from '../wire/cell.js';
import { faultyHttp1 } from '../wire/http1.js';
import { chatSse, sttSse, ttsSse } from '../wire/openai.js';

export const SSE: Transport = {
  name: 'SSE',
  faults: [
    'refused',
    'reset before headers',
    'reset mid-stream',
    'stall before first chunk',
    'stall mid-stream',
    '429 + Retry-After',
    '500',
    '503',
    'malformed frame',
    'slow consumer',
  ],
  caps: {
    tts: async (ctx) => ({
      kind: 'openai-compatible',
      baseUrl: await faultyHttp1(ttsSse, ctx),
      tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' },
    }),
    stt: async (ctx) => ({
      kind: 'openai-compatible',
      baseUrl: await faultyHttp1(sttSse, ctx),
      stt: { model: 'gpt-4o-mini-transcribe' },
    }),
    chat: async (ctx) => ({
      kind: 'openai-compatible',
      baseUrl: await faultyHttp1(chatSse, ctx),
      chat: { models: { fast: 'm' } },
    }),
  },
};
