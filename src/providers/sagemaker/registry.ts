import { nameOrShape, valueShape } from '../../internal/value-shape.js';
import type { SageMakerCodec, SageMakerCodecOf } from './codec.js';
import { CARTESIA_SAMPLE_RATES, cartesiaTtsCodec } from './codecs/cartesia-tts.js';
import { jsonLinesChatCodec } from './codecs/jsonlines-chat.js';
import { openAiChatCodec } from './codecs/openai-chat.js';
import { rawPcmTtsCodec } from './codecs/raw-pcm-tts.js';
import { rawPcmSttCodec, wavSttCodec } from './codecs/stt.js';
import { tgiCodec } from './codecs/tgi.js';

type Capability = SageMakerCodec['capability'];

/** Codecs by capability, then by name; the built-in ones first. */
const codecs: { [C in Capability]: Map<string, SageMakerCodecOf<C>> } = {
  chat: new Map([
    ['openai-chat', openAiChatCodec],
    ['tgi', tgiCodec],
    ['jsonlines', jsonLinesChatCodec],
  ]),
  tts: new Map([
    ['cartesia', cartesiaTtsCodec],
    ['raw-pcm', rawPcmTtsCodec],
  ]),
  stt: new Map([
    ['wav', wavSttCodec],
    ['raw-pcm', rawPcmSttCodec],
  ]),
};

/**
 * Adds (or replaces) the payload codec `name` for its capability (`codec.capability`), so a
 * provider of kind `sagemaker` can name it in `chat.payload`, `tts.payload` or `stt.payload`.
 * Register before the config is parsed (`parseConfig`, `loadConfig` or `createRouter()`): the
 * config check reports a payload no codec is registered for, and adapters look codecs up when
 * they are created. Names are
 * per capability (`'raw-pcm'` exists for both tts and stt); registering a built-in name
 * replaces the built-in codec for every router created afterwards.
 *
 * Built in: chat `'openai-chat'`, `'tgi'`, `'jsonlines'`; tts `'cartesia'`, `'raw-pcm'`;
 * stt `'wav'`, `'raw-pcm'`. See `SageMakerChatCodec`, `SageMakerTtsCodec`, `SageMakerSttCodec`
 * for the contract and docs/providers.md for an example.
 *
 * @throws TypeError, before anything is registered (a codec that would crash at its first call
 *   is refused here, naming what is missing): `name` not a non-empty string, `codec` not an
 *   object, `codec.capability` not `'chat'`, `'tts'` or `'stt'`, `encode` or `decode` not a
 *   function, `outputFormats` (tts) or `inputFormats` (stt) not a function, or `input` given
 *   but not a function.
 */
export function registerSageMakerCodec(name: string, codec: SageMakerCodec): void {
  if (typeof name !== 'string' || name === '')
    throw new TypeError(
      `registerSageMakerCodec(name, codec): name must be a non-empty string, got ${name === '' ? 'an empty string' : valueShape(name)}`,
    );
  if (typeof codec !== 'object' || codec === null)
    throw new TypeError(
      `registerSageMakerCodec: SageMaker codec '${name}' must be an object ({ capability, encode, decode, ... }), got ${valueShape(codec)}`,
    );
  const capability: unknown = codec.capability;
  if (capability !== 'chat' && capability !== 'tts' && capability !== 'stt')
    throw new TypeError(
      `registerSageMakerCodec: SageMaker codec '${name}' must have capability 'chat', 'tts' or 'stt', got ${nameOrShape(capability)}`,
    );
  const members = { chat: [], tts: ['outputFormats'], stt: ['inputFormats'] }[capability];
  for (const member of ['encode', 'decode', ...members]) {
    const value: unknown = (codec as unknown as Record<string, unknown>)[member];
    if (typeof value !== 'function')
      throw new TypeError(
        `registerSageMakerCodec: SageMaker ${capability} codec '${name}' must have a function ${member}(), got ${valueShape(value)}`,
      );
  }
  if (
    capability !== 'chat' &&
    'input' in codec &&
    codec.input !== undefined &&
    typeof codec.input !== 'function'
  )
    throw new TypeError(
      `registerSageMakerCodec: SageMaker ${capability} codec '${name}' has input, which must be a function when given, got ${valueShape(codec.input)}`,
    );
  switch (codec.capability) {
    case 'chat':
      codecs.chat.set(name, codec);
      return;
    case 'tts':
      codecs.tts.set(name, codec);
      return;
    case 'stt':
      codecs.stt.set(name, codec);
      return;
  }
}

/** The codec registered as `name` for `capability`, or undefined. */
export function sageMakerCodec<C extends Capability>(
  capability: C,
  name: string,
): SageMakerCodecOf<C> | undefined {
  return codecs[capability].get(name) as SageMakerCodecOf<C> | undefined;
}

/** The names registered for `capability`, built-in ones first, e.g. `['openai-chat', 'tgi', 'jsonlines']`. */
export function sageMakerCodecNames(capability: Capability): string[] {
  return [...codecs[capability].keys()];
}

/**
 * The config problems of the payload codecs a `sagemaker` provider names, each with its path
 * (`base`, the provider's own path, then e.g. `chat.payload`):
 * a `payload` no codec is registered for (`no chat codec named "nope"; known: "openai-chat",
 * "tgi", "jsonlines" (register one with registerSageMakerCodec)`), and `stt.stream:
 * "bidirectional"` with an stt codec that cannot stream audio in (no `input()`), and a
 * `tts.sampleRate` the built-in "cartesia" codec's wire cannot ask for (not one of
 * CARTESIA_SAMPLE_RATES). `provider` is
 * read defensively (it may have failed its own schema); empty when all is well.
 */
export function sageMakerCodecIssues(
  provider: Record<string, unknown>,
  base: readonly (string | number)[],
): Array<{ path: (string | number)[]; message: string }> {
  const issues: Array<{ path: (string | number)[]; message: string }> = [];
  for (const capability of ['chat', 'tts', 'stt'] as const) {
    const section = provider[capability];
    if (typeof section !== 'object' || section === null) continue;
    const { payload, stream, sampleRate } = section as {
      payload?: unknown;
      stream?: unknown;
      sampleRate?: unknown;
    };
    if (typeof payload !== 'string' || payload === '') continue;
    const codec = sageMakerCodec(capability, payload);
    if (!codec) {
      const known = sageMakerCodecNames(capability)
        .map((n) => `"${n}"`)
        .join(', ');
      issues.push({
        path: [...base, capability, 'payload'],
        message: `no ${capability} codec named "${payload}"; known: ${known} (register one with registerSageMakerCodec)`,
      });
    } else if (capability === 'stt' && stream === 'bidirectional' && !('input' in codec && codec.input)) {
      issues.push({
        path: [...base, 'stt', 'stream'],
        message: `the stt codec "${payload}" cannot stream audio in (no input()); use "raw-pcm" or stream: "response"`,
      });
    } else if (
      codec === cartesiaTtsCodec &&
      typeof sampleRate === 'number' &&
      Number.isInteger(sampleRate) &&
      !CARTESIA_SAMPLE_RATES.includes(sampleRate)
    ) {
      issues.push({
        path: [...base, 'tts', 'sampleRate'],
        message: `must be one of Cartesia's rates with payload "cartesia": ${CARTESIA_SAMPLE_RATES.join(', ')} Hz`,
      });
    }
  }
  return issues;
}
