import { ProtocolError } from '../../../errors/index.js';
import { lazySchema } from '../../../internal/zod.js';
import type { AudioFormat } from '../../../types/audio.js';
import { decodeBase64Audio } from '../../shared/base64-audio.js';
import { parseWire } from '../../shared/parse-wire.js';
import type { SageMakerTtsCodec } from '../codec.js';
import { jsonMessages } from '../framing.js';

/** Cartesia's `encoding` value for each voxroute encoding (PROTOCOLS.md 1.2). */
const CARTESIA_ENCODING: Record<AudioFormat['encoding'], string> = {
  pcm_s16le: 'pcm_s16le',
  pcm_f32le: 'pcm_f32le',
  mulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
};

/**
 * The `output_format.sample_rate` values Cartesia's TTS takes: 8000, 16000, 22050, 24000, 44100,
 * 48000 Hz (PROTOCOLS.md 1.2). A `tts.sampleRate` outside them is a ConfigError (registry.ts).
 */
export const CARTESIA_SAMPLE_RATES: readonly number[] = [8000, 16_000, 22_050, 24_000, 44_100, 48_000];

/**
 * A Cartesia TTS message (PROTOCOLS.md 1.4, 1.5; CJS `TTSSSEEvent`, `WebsocketResponse`):
 * `{"type":"chunk","data":"<base64>","done":false}`, `{"type":"timestamps",...}`,
 * `{"type":"done","done":true}`; `{"type":"error",...}` is caught before this schema.
 * Built on first call (zod is loaded then, see src/internal/zod.ts).
 */
const cartesiaMessageSchema = lazySchema((z) =>
  z.looseObject({
    type: z.string().nullish(),
    data: z.string().nullish(),
    done: z.boolean().nullish(),
  }),
);

/**
 * Codec `'cartesia'`: Cartesia Sonic deployed as a SageMaker endpoint, speaking Cartesia's
 * TTS JSON (PROTOCOLS.md 1.3, 1.4).
 * - Body: `{model_id?, transcript, voice: {mode: 'id', id}, output_format: {container: 'raw',
 *   encoding, sample_rate}, language?, generation_config?: {speed}}` (`model_id` from
 *   `tts.model`); content type `application/json`, accept `text/event-stream`.
 * - Output formats: PCM s16le mono at the configured sample rate.
 * - Reply: JSON messages, framed as SSE or JSON lines (detected); each `chunk`'s base64 `data`
 *   is yielded as audio in the requested format; `timestamps` messages are skipped; the
 *   `done` message ends the audio. An `error` message is a ProviderError (its `status_code`
 *   decides `retryable`); a stream that ends without `done` is a truncated ProtocolError.
 */
export const cartesiaTtsCodec: SageMakerTtsCodec = {
  capability: 'tts',
  outputFormats: (sampleRate) => [{ encoding: 'pcm_s16le', sampleRate, channels: 1 }],
  encode({ request }) {
    const body: Record<string, unknown> = {};
    if (request.model !== undefined) body.model_id = request.model;
    body.transcript = request.text;
    body.voice = { mode: 'id', id: request.voice };
    body.output_format = {
      container: 'raw',
      encoding: CARTESIA_ENCODING[request.format.encoding],
      sample_rate: request.format.sampleRate,
    };
    if (request.language !== undefined) body.language = request.language;
    if (request.speed !== undefined) body.generation_config = { speed: request.speed };
    return { body: JSON.stringify(body), contentType: 'application/json', accept: 'text/event-stream' };
  },
  async *decode(parts, { provider, request }) {
    let hadOutput = false;
    for await (const message of jsonMessages(parts, { provider })) {
      if (message.kind === 'done') return;
      const value = parseWire(cartesiaMessageSchema(), message.value, provider, 'Cartesia message', false);
      if ((value.type === 'chunk' || value.type == null) && value.data) {
        const data = decodeBase64Audio(value.data, provider, hadOutput);
        if (data.byteLength > 0) {
          hadOutput = true;
          yield { data, format: request.format };
        }
      }
      if (value.type === 'done' || value.done === true) return;
    }
    throw new ProtocolError('Cartesia audio stream ended without its done message (truncated)', { provider });
  },
};
