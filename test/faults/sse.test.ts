/**
 * Fault matrix, SSE: OpenAI-style event streams for chat, TTS and STT from a server that speaks
 * the wire on its own (node:http). Outcomes: expected.ts.
 */
import { SSE } from './transports/sse.js';
import { faultMatrix } from './wire/suite.js';

faultMatrix(SSE);
