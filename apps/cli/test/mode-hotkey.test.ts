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
