/**
 * Fault matrix, SageMaker bidirectional stream: an h2c endpoint written on node:http2 that
 * answers with event-stream messages from test code; resets are RST_STREAM INTERNAL_ERROR.
 * Outcomes: expected.ts.
 */
import { SAGEMAKER_BIDI } from './transports/sagemaker-bidi.js';
import { faultMatrix } from './wire/suite.js';

faultMatrix(SAGEMAKER_BIDI);
