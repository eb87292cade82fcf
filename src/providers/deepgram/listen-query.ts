import { formatLabel } from '../../audio/format.js';
import { ProtocolError } from '../../errors/index.js';
import type { ProviderSttRequest } from '../types.js';
import { deepgramEncoding } from './formats.js';
import type { DeepgramSttOptions } from './options.js';

/**
 * The query of one `/v1/listen` connection, in order (PROTOCOLS.md 3.2, DGJS `ConnectArgs`):
 * `model` (the request's, else `options.model`), `encoding` (`linear16`, `mulaw`, `alaw`) and
 * `sample_rate` (Hz) and `channels` of the request's format (raw audio has no header, so
 * Deepgram needs all three), `interim_results` (`true` when the caller asked for partials or
 * `utteranceEndMs` is set, which needs them; else `false`), then when set: `language` (the
 * request's, else `options.language`), `endpointing` (ms or `false`), `utterance_end_ms`,
 * `smart_format`. Throws ProtocolError for a format Deepgram cannot take raw (pcm_f32le): the
 * router only sends one of `inputFormats`.
 */
export function listenQuery(
  request: ProviderSttRequest,
  options: DeepgramSttOptions,
  provider: string,
): Array<[string, string]> {
  const encoding = deepgramEncoding(request.format.encoding);
  if (!encoding) {
    throw new ProtocolError(`Deepgram /v1/listen cannot take ${formatLabel(request.format)}`, { provider });
  }
  const query: Array<[string, string]> = [
    ['model', request.model ?? options.model],
    ['encoding', encoding],
    ['sample_rate', String(request.format.sampleRate)],
    ['channels', String(request.format.channels ?? 1)],
    ['interim_results', String(request.interim || options.utteranceEndMs !== undefined)],
  ];
  const language = request.language ?? options.language;
  if (language !== undefined) query.push(['language', language]);
  if (options.endpointingMs !== undefined) query.push(['endpointing', String(options.endpointingMs)]);
  if (options.utteranceEndMs !== undefined) query.push(['utterance_end_ms', String(options.utteranceEndMs)]);
  if (options.smartFormat !== undefined) query.push(['smart_format', String(options.smartFormat)]);
  return query;
}
