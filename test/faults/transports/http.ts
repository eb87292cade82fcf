/** HTTP transport: a body that is the output itself (TTS as streamed WAV, STT as one JSON transcript). */

import { HTTP_FAULTS } from '../matrix.js';
import type { Transport } from '../wire/cell.js';
import { sttJson, ttsWav } from '../wire/openai.js';
import { openAiCompatible } from './openai-compatible.js';

export const HTTP: Transport = {
  name: 'HTTP',
  faults: HTTP_FAULTS,
  caps: {
    tts: openAiCompatible(ttsWav, { tts: { voices: { agent: 'alloy' }, responseFormat: 'wav' } }),
    stt: openAiCompatible(sttJson, { stt: { model: 'whisper-1', streaming: false } }),
  },
};
