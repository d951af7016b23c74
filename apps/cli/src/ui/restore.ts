import { isRiskgateNote } from '../session/notes.js';
import type { AgentEvent, Message } from '@riskgate/core';
import type { Decision } from '@riskgate/risk';
import { terminalText } from '../terminal-text.js';
import type { Item } from './conversation.js';

/** A message's text as the screen shows it: escape sequences from the model or a tool as codes. */
function textOf(content: unknown): string {
  return terminalText(rawTextOf(content));
}

function rawTextOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === 'object' && part !== null && 'text' in part ? String((part as { text: unknown }).text) : '',
      )
      .join('');
  return '';
}

/**
 * The state a tool call ended in, read back from what the model was told, for a transcript
 * whose events do not say (older files). A call the session ended on while it ran is "failed"
 * with its "interrupted: … may have partly run" text — never a cancel that looks harmless.
 */
function stateOf(result: string | undefined): Extract<Item, { kind: 'tool' }>['state'] {
  if (result === undefined) return 'cancelled';
  if (result.startsWith('interrupted:')) return 'failed';
  if (/^not run: the (riskgate session ended|person cancelled)|^cancelled/.test(result)) return 'cancelled';
  if (result.startsWith('not run')) return 'denied';
  if (result.startsWith('error')) return 'failed';
  return 'succeeded';
}

/**
 * A resumed conversation as screen items: the person's messages, the model's answers, and each
 * tool call with the result it got (ids are assigned by the reducer). The transcript's events,
 * when given, say how each call ended, how long it ran and why it ran without asking — as the
 * screen showed it the first time.
 */
export function itemsFromMessages(messages: readonly Message[], events: readonly AgentEvent[] = []): Item[] {
  const results = new Map<string, string>();
  for (const message of messages)
    if (message.role === 'tool') results.set(message.tool_call_id, rawTextOf(message.content));
  const ended = new Map<string, Extract<AgentEvent, { type: 'tool-result' }>>();
  const decisions = new Map<string, Decision>();
  const titles = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'tool-result') ended.set(event.toolCallId, event);
    else if (event.type === 'decision') decisions.set(event.toolCallId, event.decision);
    // Transcripts from before titles existed have none: the arguments' text stands in.
    else if (event.type === 'tool-call' && event.title !== undefined) titles.set(event.toolCallId, event.title);
  }
  const items: Item[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      // riskgate's notes to the model (tools changed, a summary) are not the person's words.
      if (!isRiskgateNote(textOf(message.content))) items.push({ kind: 'user', id: 0, text: textOf(message.content) });
    } else if (message.role === 'assistant') {
      const text = textOf(message.content);
      if (text !== '') items.push({ kind: 'assistant', id: 0, text, question: false });
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const result = results.get(call.id);
        const end = ended.get(call.id);
        const decision = decisions.get(call.id);
        items.push({
          kind: 'tool',
          id: 0,
          toolCallId: call.id,
          toolName: call.function.name,
          argumentsText: call.function.arguments,
          title: titles.get(call.id) ?? call.function.arguments,
          state: end?.state ?? stateOf(result),
          ...(decision === undefined ? {} : { decision }),
          output: '',
          ...(result === undefined ? {} : { result: { forModel: result, durationMs: end?.durationMs ?? 0 } }),
          startedAt: 0,
        });
      }
    }
  }
  return items;
}
