import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateToolCall } from '@riskgate/risk';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecuteCommandTool } from '../src/index.js';
import { createGateFixture } from './gate-fixture.js';

// The sandbox hides the secret files its workspace scan found. A scan its bounds cut short (the
// red team: a first walk of a large tree ran out of its budget and the call ran anyway, with the
// files it had not reached visible) must make the call asked.
const fixture = createGateFixture();
afterAll(() => fixture.cleanup());
mkdirSync(join(fixture.workspace, 'many'), { recursive: true });
for (let index = 0; index < 40; index++) writeFileSync(join(fixture.workspace, 'many', `f${index}.txt`), 'x\n');

const decide = (tool: ReturnType<typeof createExecuteCommandTool>, command: string) =>
  evaluateToolCall(
    tool,
    { command },
    { cwd: fixture.workspace, home: fixture.home, sandbox: true },
    { mode: 'smart', rules: [] },
  );

describe('a workspace scan cut short makes the sandboxed call asked', () => {
  it.each(['cat README.md', 'ls', 'grep -r TODO src', 'rev file.txt'])('%s', async (command) => {
    const bounded = await decide(createExecuteCommandTool({ workspaceScan: { maxEntries: 10 } }), command);
    expect(bounded.decision.action).not.toBe('execute');
    expect(JSON.stringify(bounded)).toContain('could check for secrets in time');
    const timed = await decide(createExecuteCommandTool({ workspaceScan: { budgetMs: 0 } }), command);
    expect(timed.decision.action).not.toBe('execute');
    // With the scan's own bounds it finishes, and the same call runs unasked.
    expect((await decide(createExecuteCommandTool(), command)).decision.action).toBe('execute');
  });
});
