/** HTTP transport: a body that is the output itself (TTS as streamed WAV, STT as one JSON transcript). */

import type { Transport } from '../wire/cell.js';
import { faultyHttp1 } from '../wire/http1.js';
import { sttJson, ttsWav } from '../wire/openai.js';

export const HTTP: Transport = {
  name: 'HTTP',
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
      baseUrl: await faultyHttp1(ttsWav, ctx),
      tts: { voices: { agent: 'alloy' }, responseFormat: 'wav' },
    }),
    stt: async (ctx) => ({
      kind: 'openai-compatible',
      baseUrl: await faultyHttp1(sttJson, ctx),
      stt: { model: 'whisper-1', streaming: false },
    }),
  },
};
