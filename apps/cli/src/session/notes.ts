import type { Message } from '@riskgate/core';

/** How riskgate's own notes to the model begin: the screen does not show them as the person's words. */
export const RISKGATE_NOTE_PREFIX = '[riskgate: ';

export function isRiskgateNote(text: string): boolean {
  return text.startsWith(RISKGATE_NOTE_PREFIX);
}

/**
 * What the model is told when the conversation moves to another mode or database (/sql, /db,
 * /chat): its tools and instructions changed, and the calls it made before used the tools of then.
 * A user message, not a system one: servers whose chat templates allow one system message at the
 * start take it too.
 */
export function toolsChangedNote(
  kind: 'sql' | 'chat',
  database: string | undefined,
  tools: readonly string[],
): Message {
  const where = kind === 'sql' ? `SQL mode on the database ${database ?? ''}` : 'chat mode';
  return {
    role: 'user',
    content: `${RISKGATE_NOTE_PREFIX}the person switched this conversation to ${where}. The system prompt and your tools changed; the tools now are: ${tools.join(', ')}. Tool calls earlier in the conversation used the tools of then.]`,
  };
}
