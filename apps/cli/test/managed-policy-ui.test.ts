import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '@riskgate/core';
import type { GatePolicy, SafetyMode } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { type CommandContext, runSlashCommand } from '../src/ui/commands.js';

/** `/mode` (and `/audit`) against an agent whose policy carries the organisation's floor (docs/policy.md). */
function run(line: string, policy: GatePolicy, auditPath = '/nonexistent/audit.jsonl') {
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
    auditPath,
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

describe('/audit', () => {
  it("names the organisation's policy as who decided", () => {
    const directory = mkdtempSync(join(tmpdir(), 'riskgate-audit-'));
    try {
      const auditPath = join(directory, 'audit.jsonl');
      new AuditLog(auditPath).record({
        time: new Date().toISOString(),
        toolCallId: 'c1',
        tool: 'execute_command',
        title: 'rm -rf build',
        args: { command: 'rm -rf build' },
        llmLevel: 'low',
        code: { level: 'high', whitelisted: false },
        decision: {
          action: 'deny',
          source: 'rule',
          rule: 'execute_command(rm *)',
          managed: true,
          reasons: ["your organisation's policy denies execute_command(rm *)"],
        },
        effects: ['deletes build (recursively)'],
        disagreement: true,
        answer: 'not-asked',
        outcome: 'denied',
        durationMs: 0,
      });
      const { notices } = run('/audit', underFloor('smart'), auditPath);
      expect(notices[0]?.text).toMatch(
        /execute_command .*· deny by your organisation's policy .*→ denied.*your organisation's policy denies execute_command\(rm \*\)/,
      );
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
