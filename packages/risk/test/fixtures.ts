import { z } from 'zod';
import { type Assessment, defineTool, notWhitelisted, whitelisted } from '../src/index.js';

/**
 * A small tool for gate tests: `op` names an operation; `read` is on its whitelist, `wipe` is
 * dangerous, anything else is unknown. `;` separates several operations, each one a subject.
 */
export const sampleTool = defineTool({
  name: 'sample_tool',
  description: 'Runs sample operations',
  parameters: z.object({ op: z.string().min(1) }),
  ruleStyle: 'text',
  assess: ({ op }): Assessment => {
    const subjects = op.split(';').map((part) => part.trim());
    if (subjects.every((subject) => subject.startsWith('read'))) return whitelisted(['reads only'], subjects);
    if (subjects.some((subject) => subject.startsWith('wipe'))) return notWhitelisted('high', ['wipe destroys data'], subjects);
    return notWhitelisted('medium', ['not a known operation'], subjects);
  },
  describe: ({ op }) => ({ kind: 'generic', summary: op, details: [] }),
  execute: async ({ op }) => ({ type: 'tool-success', forModel: op, data: op }),
});
