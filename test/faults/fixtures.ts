/**
 * What the primary and the backup say in every cell: tiny payloads, distinct bytes and text,
 * so the outcome tells who spoke. Each capability's primary output comes in two pieces, the
 * first of which is what a mid-stream fault follows.
 */
import { pcmSignal } from '../cases/wire/servers.js';

/** TTS: the primary's audio (PCM s16le mono 24 kHz, 0.04 s), in two pieces. */
export const TTS_PRIMARY = pcmSignal(960, 24_000, 1);
export const TTS_FIRST = TTS_PRIMARY.subarray(0, 960);
export const TTS_REST = TTS_PRIMARY.subarray(960);
/** TTS: the backup's audio. */
export const TTS_BACKUP = pcmSignal(960, 24_000, 2);

/** STT: the primary's two words (one final each where the wire has per-segment finals). */
export const STT_WORDS = ['hello', 'world'] as const;
/** STT: the backup's whole transcript. */
export const STT_BACKUP = 'backup words';
/** STT: the caller's audio, PCM s16le mono 16 kHz, 0.05 s in two pieces. */
export const STT_AUDIO = pcmSignal(800, 16_000, 3);

/** Chat: the primary's reply in two text deltas. */
export const CHAT_DELTAS = ['Hello', ' world'] as const;
/** Chat: the backup's reply. */
export const CHAT_BACKUP = 'Backup answer.';

export const TTS_TEXT = 'Hello there.';
