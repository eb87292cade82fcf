/**
 * Fault matrix, SageMaker response stream: InvokeEndpointWithResponseStream answered over
 * HTTP/1.1 with event-stream messages written by test code (bad CRC = malformed frame), errors
 * typed by x-amzn-errortype. Outcomes: expected.ts.
 */
import { SAGEMAKER_RESPONSE } from './transports/sagemaker-response.js';
import { faultMatrix } from './wire/suite.js';

faultMatrix(SAGEMAKER_RESPONSE);
