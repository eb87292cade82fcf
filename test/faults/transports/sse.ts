/** SSE transport: OpenAI-style event streams for chat, TTS (`stream_format: "sse"`) and STT. */

import { HTTP_FAULTS } from '../matrix.js';
import type { Transport } from '../wire/cell.js';
import { chatSse, sttSse, ttsSse } from '../wire/openai.js';
import { openAiCompatible } from './openai-compatible.js';

export const SSE: Transport = {
  name: 'SSE',
  faults: HTTP_FAULTS,
  caps: {
    tts: openAiCompatible(ttsSse, { tts: { voices: { agent: 'alloy' }, streamFormat: 'sse' } }),
    stt: openAiCompatible(sttSse, { stt: { model: 'gpt-4o-mini-transcribe' } }),
    chat: openAiCompatible(chatSse, { chat: { models: { fast: 'm' } } }),
  },
};
