import {
  type ShapeOf,
  wireCount,
  wireLiteral,
  wireNullish,
  wireObject,
  wireString,
  wireUnknown,
} from '../shared/wire-shape.js';

/*
 * Wire shapes of Anthropic's Messages API (PROTOCOLS.md 6b; Anthropic SDK messages types). The
 * stream schemas are loose: unknown fields (`stop_details`, cache token counts, `citations`, ...)
 * are kept and ignored, and only the fields voxroute reads are declared.
 *
 * The stream events are wire shapes (src/providers/shared/wire-shape.ts): checked without zod
 * when they fit, so the first call does not load zod; `parseWire(xShape, ...)`.
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

const str = wireNullish(wireString);
const usage = wireNullish(
  wireObject({ input_tokens: wireNullish(wireCount), output_tokens: wireNullish(wireCount) }),
);

/** `message_start`: `message.usage.input_tokens` is the prompt's token count. */
export const messageStartShape = wireObject({
  type: wireLiteral('message_start'),
  message: wireObject({ usage }),
});

/** `content_block_start`: a `text` block (with its first `text`, usually `''`) or a `tool_use` block. */
export const contentBlockStartShape = wireObject({
  type: wireLiteral('content_block_start'),
  index: wireCount,
  content_block: wireObject({ type: wireString, text: str, id: str, name: str, input: wireUnknown }),
});

/** `content_block_delta`: `text_delta` (`text`), `input_json_delta` (`partial_json`), or others (ignored). */
export const contentBlockDeltaShape = wireObject({
  type: wireLiteral('content_block_delta'),
  index: wireCount,
  delta: wireObject({ type: wireString, text: str, partial_json: str }),
});

/** `content_block_stop`: the block at `index` is complete. */
export const contentBlockStopShape = wireObject({
  type: wireLiteral('content_block_stop'),
  index: wireCount,
});

/** `message_delta`: the stop reason and the (cumulative) usage; `input_tokens` may be present too. */
export const messageDeltaShape = wireObject({
  type: wireLiteral('message_delta'),
  delta: wireNullish(wireObject({ stop_reason: str })),
  usage,
});

/** Any stream event: only `type` is read before the event is checked against its own shape. */
export const streamEventShape = wireObject({ type: wireString });

/** A parsed `message_start`. */
export type MessageStart = ShapeOf<typeof messageStartShape>;
/** A parsed `content_block_start`. */
export type ContentBlockStart = ShapeOf<typeof contentBlockStartShape>;
/** A parsed `content_block_delta`. */
export type ContentBlockDelta = ShapeOf<typeof contentBlockDeltaShape>;
/** A parsed `message_delta`. */
export type MessageDelta = ShapeOf<typeof messageDeltaShape>;
