/**
 * Fault matrix, WebSocket: Cartesia TTS and Deepgram live STT servers that speak the wire on
 * their own (ws), with refused upgrades, resets, stalls, a non-JSON message and close codes
 * 1006, 1008 and 1011. Outcomes: expected.ts.
 */
import { WEBSOCKET } from './transports/websocket.js';
import { faultMatrix } from './wire/suite.js';

faultMatrix(WEBSOCKET);
