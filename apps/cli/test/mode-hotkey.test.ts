import type { SafetyMode } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { nextHotkeyMode } from '../src/ui/commands.js';

describe('Shift+Tab mode order', () => {
  it.each<[SafetyMode, SafetyMode | undefined, SafetyMode]>([
    ['smart', undefined, 'strict'],
    ['strict', undefined, 'guarded'],
    ['guarded', undefined, 'smart'],
    ['yolo', undefined, 'smart'],
    ['guarded', 'guarded', 'strict'],
    ['strict', 'guarded', 'guarded'],
    ['strict', 'strict', 'strict'],
    ['smart', 'smart', 'strict'],
    ['guarded', 'smart', 'smart'],
  ])('from %s under floor %s goes to %s', (current, floor, next) => {
    expect(nextHotkeyMode(current, floor)).toBe(next);
  });

  it('never returns yolo, whatever the start and the floor', () => {
    for (const current of ['smart', 'strict', 'guarded', 'yolo'] as const)
      for (const floor of [undefined, 'smart', 'guarded', 'strict'] as const)
        expect(nextHotkeyMode(current, floor)).not.toBe('yolo');
  });
});

describe("riskgate's notes on a redrawn conversation", () => {
  it('are not shown as the person’s words; the person’s messages are', async () => {
    const { itemsFromMessages } = await import('../src/ui/restore.js');
    const { toolsChangedNote } = await import('../src/session/notes.js');
    const items = itemsFromMessages(
      [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'One.' },
        toolsChangedNote('sql', 'shop.sqlite', ['execute_sql', 'describe_schema']),
        { role: 'user', content: 'second' },
      ],
      [],
    );
    expect(items.filter((item) => item.kind === 'user').map((item) => ('text' in item ? item.text : ''))).toEqual([
      'first',
      'second',
    ]);
  });
});
