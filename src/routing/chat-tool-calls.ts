import type { ChatStreamReport, ToolCallFragment } from '../providers/types.js';
import type { PartialToolCall } from '../types/chat.js';

/**
 * The tool calls one chat attempt's provider has started, as its adapter reports them piece by
 * piece (see ChatStreamReport). The router keeps one per attempt: a reply that started a tool
 * call cannot be continued on another provider as plain text, and its MidStreamError lists
 * these calls (`toolCalls`). Nothing is allocated until a first piece arrives.
 */
export class StartedToolCalls implements ChatStreamReport {
  /** The calls by the adapter's index; made on the first piece. */
  #calls: Map<number, PartialToolCall> | undefined;

  /** Adds a piece of call `index` (the first `id` and `name` given are kept, `arguments` joined). */
  toolCall(index: number, fragment: ToolCallFragment): void {
    this.#calls ??= new Map();
    let call = this.#calls.get(index);
    if (call === undefined) {
      call = { id: '', name: '', arguments: '' };
      this.#calls.set(index, call);
    }
    if (call.id === '' && fragment.id) call.id = fragment.id;
    if (call.name === '' && fragment.name) call.name = fragment.name;
    if (fragment.arguments) call.arguments += fragment.arguments;
  }

  /** True once the provider started a tool call. */
  get started(): boolean {
    return this.#calls !== undefined;
  }

  /** The calls started, in index order, as copies (the error's list is the caller's own). */
  list(): PartialToolCall[] {
    const calls = this.#calls;
    if (calls === undefined) return [];
    return [...calls.keys()].sort((a, b) => a - b).map((index) => ({ ...calls.get(index)! }));
  }
}
