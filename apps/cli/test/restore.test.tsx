import type { AgentEvent, Message } from '@riskgate/core';
import { INTERRUPTED_RUNNING_RESULT } from '@riskgate/core';
import type { Decision } from '@riskgate/risk';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { itemsFromMessages } from '../src/ui/restore.js';
import { ToolView } from '../src/ui/ToolView.js';

const call = (id: string, command: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'execute_command', arguments: JSON.stringify({ command }) },
});
const messages: Message[] = [
  { role: 'user', content: 'do things' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [call('c1', 'sleep 60'), call('c2', 'ls'), call('c3', 'make build')],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'output so far: 1 2 3' },
  { role: 'tool', tool_call_id: 'c2', content: 'README.md' },
  { role: 'tool', tool_call_id: 'c3', content: INTERRUPTED_RUNNING_RESULT },
];
const byModel: Decision = {
  action: 'execute',
  source: 'llm',
  level: 'low',
  llmLevel: 'low',
  codeLevel: null,
  whitelisted: false,
  disagreement: false,
  reasons: [],
  effects: [],
} as unknown as Decision;
const events: AgentEvent[] = [
  { type: 'decision', toolCallId: 'c2', toolName: 'execute_command', decision: byModel },
  {
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'execute_command',
    state: 'cancelled',
    forModel: 'output so far: 1 2 3',
    durationMs: 2_345,
  },
  {
    type: 'tool-result',
    toolCallId: 'c2',
    toolName: 'execute_command',
    state: 'succeeded',
    forModel: 'README.md',
    durationMs: 17,
  },
];

describe('a resumed conversation is redrawn as it was', () => {
  const items = itemsFromMessages(messages, events).filter((item) => item.kind === 'tool');
  const screen = (index: number) =>
    render(<ToolView item={{ ...items[index]!, id: index + 1 }} width={100} />).lastFrame() ?? '';

  it('a cancelled call stays cancelled (not ✓), whatever text it left', () => {
    expect(items[0]).toMatchObject({ state: 'cancelled' });
    expect(screen(0)).toContain('⊘ execute_command cancelled');
  });

  it('a call keeps its duration and its "ran without asking" line', () => {
    expect(items[1]).toMatchObject({ state: 'succeeded', result: { durationMs: 17 } });
    expect(screen(1)).toContain('(17 ms)');
    expect(screen(1)).toContain('ran without asking: the model rated it low');
  });

  it('a call the session ended on while it ran says it may have partly run', () => {
    expect(items[2]).toMatchObject({ state: 'failed' });
    expect(screen(2)).toMatch(
      /✗ execute_command[\s\S]*interrupted: the riskgate session ended while this tool call was running/,
    );
    expect(screen(2)).toContain('may have partly');
  });
});
