/** A tool call requested by the model: `arguments` is the JSON text the model produced. */
export interface ToolCall {
  /** The call's id, as the provider gave it; a later `tool` message answers it by this id (`toolCallId`). */
  id: string;
  /** Name of the tool called: the `name` of one of the request's `tools`. */
  name: string;
  /** The arguments as the JSON text of one object (`'{}'` for a call without arguments), not parsed. */
  arguments: string;
}

/**
 * A tool call that a chat provider had started when its stream failed mid-reply
 * (`MidStreamError.toolCalls`): `id` and `name` as the provider sent them (`''` when
 * it had not sent one yet), `arguments` the JSON text received so far, which may be cut
 * anywhere (not valid JSON) when the stream failed inside the call.
 */
export interface PartialToolCall {
  /** The call's id, `''` when the provider had not sent it yet. */
  id: string;
  /** The tool's name, `''` when the provider had not sent it yet. */
  name: string;
  /** The JSON text of the arguments received so far (may be cut anywhere). */
  arguments: string;
}

/** One message of a conversation. */
export type ChatMessage =
  | {
      /** Instructions for the model. */
      role: 'system';
      /** The instructions' text. */
      content: string;
    }
  | {
      /** A turn of the user. */
      role: 'user';
      /** What the user said or typed. */
      content: string;
    }
  | {
      /** An earlier reply of the model. */
      role: 'assistant';
      /** The reply's text (`''` when the reply was only tool calls). */
      content: string;
      /** The tool calls the model made in this reply, ids distinct; undefined or empty: none. */
      toolCalls?: ToolCall[] | undefined;
    }
  | {
      /** The result of a tool call, sent back to the model. */
      role: 'tool';
      /** The tool's result as text (often JSON). */
      content: string;
      /**
       * The `id` of the tool call this answers, which must be a call of an earlier assistant
       * message (otherwise the call fails with a RequestError on this field).
       */
      toolCallId: string;
    };

/** A tool the model may call: `parameters` is a JSON Schema object. */
export interface ChatTool {
  /**
   * The tool's name, non-empty, as the model will call it; distinct among the tools of one
   * request (a repeated name is a RequestError at `tools.N.name`).
   */
  name: string;
  /** What the tool does, for the model to decide when to call it. Default: none sent. */
  description?: string | undefined;
  /** JSON Schema of the tool's arguments: an object schema, e.g. `{ type: 'object', properties: {...} }`. */
  parameters: Record<string, unknown>;
}

/** Token counts of a chat call, when the provider reports them. */
export interface ChatUsage {
  /** Tokens of the prompt (messages and tools), as the provider counted them. */
  inputTokens: number;
  /** Tokens the model generated, as the provider counted them. */
  outputTokens: number;
}

/** Why a chat completion ended. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

/**
 * An event of `router.chat()`: text deltas in order, complete tool calls (assembled from the
 * provider's deltas), and one `finish` last.
 */
export type ChatEvent =
  | {
      /** A piece of the reply's text. */
      type: 'text-delta';
      /** The next characters of the reply, to append to the ones before. */
      text: string;
    }
  | {
      /** A complete tool call, assembled from the provider's deltas. */
      type: 'tool-call';
      /** The call's id, to answer in a `tool` message's `toolCallId`. */
      id: string;
      /** Name of the tool called. */
      name: string;
      /** The arguments as the JSON text of one object, not parsed. */
      arguments: string;
    }
  | {
      /** The end of the reply: always the last event. */
      type: 'finish';
      /** Why the model stopped. */
      finishReason: FinishReason;
      /** Token counts; undefined when the provider reports none. */
      usage?: ChatUsage;
    };
