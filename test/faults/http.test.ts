/**
 * Fault matrix, HTTP: TTS as a streamed WAV body and STT as one JSON transcript from an
 * OpenAI-compatible server that speaks the wire on its own (node:http). Outcomes: expected.ts.
 */
import { HTTP } from './transports/http.js';
import { faultMatrix } from './wire/suite.js';

faultMatrix(HTTP);
