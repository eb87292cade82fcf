/** SageMaker response stream: InvokeEndpointWithResponseStream over HTTP/1.1 (event stream). */
import { HTTP_FAULTS } from '../matrix.js';
import type { Transport } from '../wire/cell.js';
import { faultyHttp1 } from '../wire/http1.js';
import { sageMakerProvider, sageMakerScript } from '../wire/sagemaker.js';

export const SAGEMAKER_RESPONSE: Transport = {
  name: 'SageMaker response stream',
  faults: HTTP_FAULTS,
  caps: {
    tts: async (ctx) => sageMakerProvider('tts', await faultyHttp1(sageMakerScript('tts'), ctx), 'response'),
    stt: async (ctx) => sageMakerProvider('stt', await faultyHttp1(sageMakerScript('stt'), ctx), 'response'),
    chat: async (ctx) =>
      sageMakerProvider('chat', await faultyHttp1(sageMakerScript('chat'), ctx), 'response'),
  },
};
