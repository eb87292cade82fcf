/** An `openai-compatible` provider whose server is a faulty HTTP/1.1 server speaking `script`. */
import type { StartPrimary } from '../wire/cell.js';
import { faultyHttp1, type Http1Script } from '../wire/http1.js';

/** Starts the faulty server for the cell; the provider config is `fields` with its baseUrl. */
export function openAiCompatible(script: Http1Script, fields: Record<string, unknown>): StartPrimary {
  return async (ctx) => ({ kind: 'openai-compatible', baseUrl: await faultyHttp1(script, ctx), ...fields });
}
