import type { z } from 'zod';
import { lazySchema } from '../../internal/zod.js';

/*
 * Wire shapes of Anthropic's Messages API (PROTOCOLS.md 6b; Anthropic SDK messages types). The
 * stream schemas are loose: unknown fields (`stop_details`, cache token counts, `citations`, ...)
 * are kept and ignored, and only the fields voxroute reads are declared.
 *
 * Each schema is a function that builds it on its first call and returns the same object
 * afterwards (`lazy`, with zod from src/internal/zod.ts), so that importing voxroute does not
 * load zod; call it where the message is parsed, e.g. `parseWire(xSchema(), ...)`.
 */

/** A text content block of a request message. */
export interface WireTextBlock {
  type: 'text';
  text: string;
}

/** A tool call of an assistant message, sent back in the history: `input` is a JSON object. */
export interface WireToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The result of a tool call, inside a user message. */
export interface WireToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
}

/** A content block of a request message. */
export type WireContentBlock = WireTextBlock | WireToolUseBlock | WireToolResultBlock;

/** A message of the request (`messages[]`): roles `user` and `assistant` only. */
export interface WireMessage {
  role: 'user' | 'assistant';
  content: string | WireContentBlock[];
}

/** A tool of the request (`tools[]`): `input_schema` is a JSON Schema object. */
export interface WireTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

/** The `POST /v1/messages` body voxroute sends. */
export interface WireMessagesRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  /** System prompt: one string, or one text block per system message when there are several. */
  system?: string | WireTextBlock[];
  stream: true;
  temperature?: number;
  tools?: WireTool[];
}

const tokens = lazySchema((z) => z.number().int().nonnegative().nullish());

/** `message_start`: `message.usage.input_tokens` is the prompt's token count. */
export const messageStartSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('message_start'),
    message: z.looseObject({
      usage: z.looseObject({ input_tokens: tokens(), output_tokens: tokens() }).nullish(),
    }),
  }),
);

/** `content_block_start`: a `text` block (with its first `text`, usually `''`) or a `tool_use` block. */
export const contentBlockStartSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('content_block_start'),
    index: z.number().int().nonnegative(),
    content_block: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      id: z.string().nullish(),
      name: z.string().nullish(),
      input: z.unknown().optional(),
    }),
  }),
);

/** `content_block_delta`: `text_delta` (`text`), `input_json_delta` (`partial_json`), or others (ignored). */
export const contentBlockDeltaSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number().int().nonnegative(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
    }),
  }),
);

/** `content_block_stop`: the block at `index` is complete. */
export const contentBlockStopSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('content_block_stop'),
    index: z.number().int().nonnegative(),
  }),
);

/** `message_delta`: the stop reason and the (cumulative) usage; `input_tokens` may be present too. */
export const messageDeltaSchema = lazySchema((z) =>
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish() }).nullish(),
    usage: z.looseObject({ input_tokens: tokens(), output_tokens: tokens() }).nullish(),
  }),
);

/** Any stream event: only `type` is read before the event is checked against its own schema. */
export const streamEventSchema = lazySchema((z) => z.looseObject({ type: z.string() }));

/** A parsed `message_start`. */
export type MessageStart = z.infer<ReturnType<typeof messageStartSchema>>;
/** A parsed `content_block_start`. */
export type ContentBlockStart = z.infer<ReturnType<typeof contentBlockStartSchema>>;
/** A parsed `content_block_delta`. */
export type ContentBlockDelta = z.infer<ReturnType<typeof contentBlockDeltaSchema>>;
/** A parsed `message_delta`. */
export type MessageDelta = z.infer<ReturnType<typeof messageDeltaSchema>>;
