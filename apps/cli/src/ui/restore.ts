import type { Message } from '@riskgate/core';
import type { Item } from './conversation.js';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'object' && part !== null && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
  return '';
}

/** The state a tool call ended in, read back from what the model was told. */
function stateOf(result: string | undefined): Extract<Item, { kind: 'tool' }>['state'] {
  if (result === undefined) return 'cancelled';
  if (/^not run: the (riskgate session ended|person cancelled)|^cancelled/.test(result)) return 'cancelled';
  if (result.startsWith('not run')) return 'denied';
  if (result.startsWith('error')) return 'failed';
  return 'succeeded';
}

/**
 * A resumed conversation as screen items: the person's messages, the model's answers, and each
 * tool call with the result it got (ids are assigned by the reducer).
 */
export function itemsFromMessages(messages: readonly Message[]): Item[] {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') results.set(message.tool_call_id, textOf(message.content));
  const items: Item[] = [];
  for (const message of messages) {
    if (message.role === 'user') items.push({ kind: 'user', id: 0, text: textOf(message.content) });
    else if (message.role === 'assistant') {
      const text = textOf(message.content);
      if (text !== '') items.push({ kind: 'assistant', id: 0, text, question: false });
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const result = results.get(call.id);
        items.push({
          kind: 'tool',
          id: 0,
          toolCallId: call.id,
          toolName: call.function.name,
          argumentsText: call.function.arguments,
          state: stateOf(result),
          output: '',
          ...(result === undefined ? {} : { result: { forModel: result, durationMs: 0 } }),
          startedAt: 0,
        });
      }
    }
  }
  return items;
}
