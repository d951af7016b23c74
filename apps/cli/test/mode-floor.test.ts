import type { GatePolicy, SafetyMode } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { type CommandContext, runSlashCommand } from '../src/ui/commands.js';

/** `/mode` against an agent whose policy carries the organisation's floor (docs/policy.md). */
function run(line: string, policy: GatePolicy) {
  let current = policy;
  const notices: { text: string; tone?: string }[] = [];
  const session = {
    agent: {
      get currentPolicy() {
        return current;
      },
      setPolicy: (next: GatePolicy) => {
        current = next;
      },
    },
    info: { mode: policy.mode },
  };
  const context = {
    session,
    notice: (text: string, tone?: string) => notices.push({ text, ...(tone === undefined ? {} : { tone }) }),
    setSession: () => {},
  } as unknown as CommandContext;
  runSlashCommand(line, context);
  return { mode: current.mode, notices };
}

const underFloor = (floor: SafetyMode): GatePolicy => ({
  mode: floor,
  rules: [],
  managed: { rules: [], floor, sources: ['/etc/riskgate/managed-policy.json'] },
});

describe('/mode under a managed floor', () => {
  it.each<[SafetyMode, string]>([
    ['guarded', 'smart'],
    ['strict', 'guarded'],
    ['strict', 'smart'],
  ])('under %s, refuses /mode %s and keeps the mode', (floor, asked) => {
    const { mode, notices } = run(`/mode ${asked}`, underFloor(floor));
    expect(mode).toBe(floor);
    expect(notices).toEqual([
      { text: `your organisation's policy sets the mode to at least ${floor}; now ${floor}`, tone: 'error' },
    ]);
  });

  it('allows a stricter mode', () => {
    expect(run('/mode strict', underFloor('guarded')).mode).toBe('strict');
  });
});
