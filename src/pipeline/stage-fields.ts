import { isMultilingualTag } from '../internal/language-tag.js';
import type { ChatRequest, SttRequest, TtsRequest } from '../types/requests.js';
import type { VoiceTurnRequest } from './types.js';

/**
 * The fields of a voiceTurn() request that each stage's call takes, named as that call names
 * them; a field the caller left out is left out (its stage request then carries nothing new).
 * The one mapping from the turn to its stages: the turn's check (validate-turn.ts) and its calls
 * (voice-turn.ts) both read it, so what is checked is what is sent. The turn's `output` is the
 * TTS stage's `format`, kept apart so that a bad one is reported at `output`.
 */

/** What the STT stage takes of the turn: `language` (Deepgram's `multi` included) and `interim`. */
export function sttFields(request: VoiceTurnRequest): Pick<SttRequest, 'language' | 'interim'> {
  return {
    ...(request.language !== undefined ? { language: request.language } : {}),
    ...(request.interim !== undefined ? { interim: request.interim } : {}),
  };
}

/** What the chat stage takes of the turn: `tools`, `maxTokens`, `temperature`. */
export function chatFields(
  request: VoiceTurnRequest,
): Pick<ChatRequest, 'tools' | 'maxTokens' | 'temperature'> {
  return {
    ...(request.tools !== undefined ? { tools: request.tools } : {}),
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

/**
 * What the TTS stage takes of the turn: `language` and `speed`. A `language` of Deepgram's
 * `multi` (recognize whatever language is spoken) is the STT stage's alone: it names no language
 * to speak in (no TTS provider's reference documents it; Cartesia's and ElevenLabs' take a
 * language code), so the TTS stage gets none and its providers' configured or own language applies.
 */
export function ttsFields(request: VoiceTurnRequest): Pick<TtsRequest, 'language' | 'speed'> {
  const language = request.language;
  return {
    ...(typeof language === 'string' && !isMultilingualTag(language) ? { language } : {}),
    ...(request.speed !== undefined ? { speed: request.speed } : {}),
  };
}
