import { ownValue } from '../internal/own.js';
import type { AttemptContext, ProviderChatRequest } from '../providers/types.js';
import type { ChatEvent } from '../types/chat.js';
import type { ChatRequest } from '../types/requests.js';
import { blankStartHeld } from './blank-start.js';
import type { CapabilityCall } from './capability.js';
import { remainingTokens, withPartialReply } from './chat-continuation.js';
import { StartedToolCalls } from './chat-tool-calls.js';

/** The logical models a provider's chat section maps. */
const modelsOf = (section: { models: Record<string, string> }): string[] => Object.keys(section.models);

/**
 * One chat() call. Each attempt sends the caller's messages to its provider. The text the
 * caller already has is kept: when a provider fails mid-reply (midStream 'continue'), the next
 * one gets that partial reply as the start of the assistant's message (prefill) and continues
 * it, so no text is repeated (after the caller's own prefill, in the same message), with the
 * caller's `maxTokens` less the tokens delivered (see chat-continuation.ts). Only a provider that continues a trailing assistant message
 * (`continuesAssistantMessage`: Anthropic, a vLLM-style server) takes a cut reply over; one that
 * would answer it with a new reply (OpenAI's API) is passed over, and when no provider is left
 * the call ends with MidStreamError holding the partial text. A reply whose provider had started
 * a tool call (its adapter reports each piece of one as it streams) is never continued: the call
 * ends with MidStreamError listing those calls (`toolCalls`).
 */
export function chatCall(request: ChatRequest): CapabilityCall<ChatEvent, 'chat'> {
  /** Text the caller already has. */
  let delivered = '';
  /** The tool calls each attempt's provider started, by the context its start was given. */
  const toolCalls = new Map<AttemptContext, StartedToolCalls>();
  return {
    capability: 'chat',
    mapped: { field: 'model', name: request.model, known: modelsOf },
    candidate(_name, chat, section) {
      const model = ownValue(section.models, request.model);
      if (model === undefined) return `no model '${request.model}' in its chat.models`;
      return {
        model,
        // A provider that would answer the partial reply anew never takes over a cut one.
        takesOver: chat.continuesAssistantMessage === true,
        start: (attempt) => {
          const asked: ProviderChatRequest = {
            // Prefill: the partial reply as the start of the assistant's message.
            messages: delivered ? withPartialReply(request.messages, delivered) : request.messages,
            model,
          };
          if (request.maxTokens !== undefined)
            asked.maxTokens = delivered ? remainingTokens(request.maxTokens, delivered) : request.maxTokens;
          if (request.temperature !== undefined) asked.temperature = request.temperature;
          if (request.tools !== undefined) asked.tools = request.tools;
          const started = new StartedToolCalls();
          toolCalls.set(attempt, started);
          return blankStartHeld(chat.chat(asked, attempt, started));
        },
      };
    },
    textOf: deltaText,
    // Continuing a reply as text after a tool call started would repeat or corrupt the call.
    canResume: (attempt) => toolCalls.get(attempt)?.started !== true,
    toolCalls: (attempt) => (attempt === undefined ? undefined : toolCalls.get(attempt))?.list() ?? [],
    onDelivered: (e) => {
      if (e.type === 'text-delta') delivered += e.text;
    },
  };
}

/** The text a chat event adds to the reply. */
function deltaText(e: ChatEvent): string | undefined {
  return e.type === 'text-delta' ? e.text : undefined;
}
