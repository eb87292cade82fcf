export type { TurnEvent, TurnResult, TurnTimeline, VoiceTurn, VoiceTurnRequest } from './types.js';
export { voiceTurn } from './voice-turn.js';
