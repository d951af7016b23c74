import { type AnyTool, DEFAULT_POLICY, defineTool, report } from '@riskgate/risk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { warmFirstCall } from '../src/session/warm-up.js';

/** A tool named like the command tool that records what the warm-up does with it. */
function recordingTool() {
  const assessed: unknown[] = [];
  let executed = 0;
  const tool = defineTool({
    name: 'execute_command',
    description: 'runs a command',
    noun: 'command',
    title: ({ command }) => command,
    parameters: z.object({ command: z.string() }),
    ruleStyle: 'text',
    assess: (args: { command: string }) => {
      assessed.push(args);
      return report([], [args.command]);
    },
    describe: (args: { command: string }) => ({ kind: 'generic', summary: args.command, details: [] }) as never,
    execute: async () => {
      executed++;
      return { type: 'tool-success', forModel: 'ran', data: undefined } as const;
    },
  });
  return { tool: tool as AnyTool, assessed, executed: () => executed };
}

describe('warming the first call', () => {
  it('judges one harmless call through the gate and never runs it', async () => {
    const { tool, assessed, executed } = recordingTool();
    await warmFirstCall([], { gate: { tools: [tool], context: { cwd: process.cwd() }, policy: DEFAULT_POLICY } });
    expect(assessed).toEqual([{ command: 'true' }]);
    expect(executed()).toBe(0);
  });

  it('leaves tools it has no harmless call for alone', async () => {
    const { tool, assessed } = recordingTool();
    const other = { ...tool, name: 'http_request' };
    await warmFirstCall([], { gate: { tools: [other], context: { cwd: process.cwd() }, policy: DEFAULT_POLICY } });
    expect(assessed).toEqual([]);
  });

  it('loads the bash grammar, so the first command is parsed without waiting for it', async () => {
    await warmFirstCall(['commands']);
    const { loadBashParser } = await import('@riskgate/tools-command');
    const timers = process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const parser = loadBashParser();
    // Already loaded: no load holds the event loop open again.
    expect(process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length).toBe(timers);
    expect((await parser).parse('ls')?.rootNode.type).toBe('program');
  });
});
