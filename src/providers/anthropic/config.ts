import type { z } from 'zod';
import {
  headersSchema,
  httpUrlSchema,
  idMapSchema,
  rejectReservedHeaders,
  sectionSchema,
} from '../../config-fields/fields.js';
import { caselessNamesPattern } from '../../config-fields/header-names.js';
import type { ResolveSecrets } from '../../config-fields/resolve-secrets.js';
import { headerTextSchema, secretSchema } from '../../config-fields/secret.js';
import { lazySchema } from '../../internal/zod.js';
import { ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_VERSION } from './options.js';

/** Header names the adapter sets itself, so `headers` may not hold them (compared case-insensitively). */
const RESERVED_HEADERS = ['x-api-key', 'authorization', 'anthropic-version'];

const chatSection = () =>
  sectionSchema('Chat through POST {baseUrl}/v1/messages with stream: true.', (z) => ({
    /**
     * Logical model name (what ChatRequest.model says) -> the model id this API expects, e.g.
     * { fast: "claude-haiku-4-5" }.
     */
    models: idMapSchema(
      'Logical model name (what ChatRequest.model says) -> the model id this API expects, e.g. { fast: "claude-haiku-4-5" }.',
    ),
    /**
     * max_tokens sent when a request sets no maxTokens (the Messages API requires it), in tokens. Default
     * 1024.
     */
    maxTokens: z
      .number()
      .int('must be a whole number of tokens')
      .positive('must be > 0 tokens')
      .default(ANTHROPIC_DEFAULT_MAX_TOKENS)
      .describe(
        `max_tokens sent when a request sets no maxTokens (the Messages API requires it), in tokens. Default ${ANTHROPIC_DEFAULT_MAX_TOKENS}.`,
      ),
  }));

function noReservedHeaders(
  provider: { headers?: Record<string, unknown> | undefined },
  ctx: z.RefinementCtx,
) {
  rejectReservedHeaders(
    provider,
    ctx,
    RESERVED_HEADERS,
    'is set by voxroute: use apiKey, authHeader or anthropicVersion instead',
  );
}

/**
 * Schema of a provider of kind `anthropic` (built on first call): Anthropic's Messages API, or
 * a gateway that mirrors it (n1n.ai's native Claude route, Vercel AI Gateway, Kindo; PROTOCOLS.md
 * 6b, 6.4). Chat only. Fields:
 * - `baseUrl`: default {@link ANTHROPIC_DEFAULT_BASE_URL}, without `/v1`;
 * - `apiKey`: required secret;
 * - `authHeader`: `'x-api-key'` (default, Anthropic) or `'bearer'` (`Authorization: Bearer`, for gateways);
 * - `anthropicVersion`: default {@link ANTHROPIC_VERSION};
 * - `headers`: extra headers (e.g. `anthropic-beta`), never the auth or version headers;
 * - `chat: { models, maxTokens (default 1024 tokens) }`.
 */
export const anthropicProviderSchema = lazySchema((z) =>
  z
    .strictObject({
      /** Anthropic's Messages API, or a gateway that mirrors it. */
      kind: z.literal('anthropic').describe("Anthropic's Messages API, or a gateway that mirrors it."),
      /**
       * Base URL of the API WITHOUT /v1 (as the official client's baseURL); voxroute appends /v1/messages.
       * Default https://api.anthropic.com.
       */
      baseUrl: httpUrlSchema(
        `Base URL of the API WITHOUT /v1 (as the official client's baseURL); voxroute appends /v1/messages. Default ${ANTHROPIC_DEFAULT_BASE_URL}.`,
      ).default(ANTHROPIC_DEFAULT_BASE_URL),
      /**
       * API key: a string, or { env: "ANTHROPIC_API_KEY" } to read it from the environment. Sent as x-api-key
       * (or Bearer, see authHeader). Required.
       */
      apiKey: secretSchema(
        'API key: a string, or { env: "ANTHROPIC_API_KEY" } to read it from the environment. Sent as x-api-key (or Bearer, see authHeader). Required.',
      ),
      /**
       * How the key is sent: "x-api-key" (Anthropic) or "bearer" ("Authorization: Bearer <key>", for gateways
       * that take it). Default "x-api-key".
       */
      authHeader: z
        .enum(['x-api-key', 'bearer'])
        .default('x-api-key')
        .describe(
          'How the key is sent: "x-api-key" (Anthropic) or "bearer" ("Authorization: Bearer <key>", for gateways that take it). Default "x-api-key".',
        ),
      /** anthropic-version header. Default "2023-06-01". */
      anthropicVersion: headerTextSchema()
        .default(ANTHROPIC_VERSION)
        .describe(`anthropic-version header. Default "${ANTHROPIC_VERSION}".`),
      /**
       * Extra HTTP headers sent with every request (e.g. anthropic-beta; values may be { env: "NAME" }); not
       * x-api-key, authorization or anthropic-version. Default none.
       */
      headers: headersSchema(
        'Extra HTTP headers sent with every request (e.g. anthropic-beta; values may be { env: "NAME" }); not x-api-key, authorization or anthropic-version. Default none.',
      ).default({}),
      /**
       * Chat through POST {baseUrl}/v1/messages with `stream: true`. Omitted: this provider serves no chat,
       * and no chat route may name it.
       */
      chat: chatSection().optional(),
    })
    .superRefine(noReservedHeaders, { when: () => true })
    // The refinement, for the JSON Schema.
    .meta({
      allOf: [
        {
          type: 'object',
          properties: {
            headers: {
              type: 'object',
              propertyNames: { not: { type: 'string', pattern: caselessNamesPattern(RESERVED_HEADERS) } },
            },
          },
        },
      ],
    })
    .describe('Anthropic (api.anthropic.com) or an Anthropic-compatible gateway: chat only.'),
);

/**
 * A provider of kind `anthropic` after parsing: defaults applied and every secret read (a plain
 * string).
 */
export type ResolvedAnthropicConfig = ResolveSecrets<z.output<ReturnType<typeof anthropicProviderSchema>>>;
