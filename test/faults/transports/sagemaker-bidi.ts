/**
 * SageMaker bidirectional stream: InvokeEndpointWithBidirectionalStream over HTTP/2 (h2c),
 * TTS and STT (chat has no bidirectional mode). Resets are RST_STREAM INTERNAL_ERROR.
 */
import { HTTP_FAULTS } from '../matrix.js';
import type { Transport } from '../wire/cell.js';
import { faultyH2 } from '../wire/h2.js';
import { sageMakerProvider, sageMakerScript } from '../wire/sagemaker.js';

export const SAGEMAKER_BIDI: Transport = {
  name: 'SageMaker bidirectional',
  faults: HTTP_FAULTS,
  caps: {
    tts: async (ctx) =>
      sageMakerProvider('tts', await faultyH2(sageMakerScript('tts'), ctx), 'bidirectional'),
    stt: async (ctx) =>
      sageMakerProvider('stt', await faultyH2(sageMakerScript('stt'), ctx), 'bidirectional'),
  },
};
