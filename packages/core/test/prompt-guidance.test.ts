import { loadPrompt } from '@riskgate/prompt';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { createFileOperationsTool } from '@riskgate/tools-file';
import { createHttpRequestTool } from '@riskgate/tools-http';
import { createDescribeSchemaTool, createExecuteSqlTool } from '@riskgate/tools-sql';
import { expect, it } from 'vitest';
import { ToolRegistry } from '../src/index.js';

it('the risk guidance names every registered tool', () => {
  const registry = new ToolRegistry([
    createExecuteSqlTool(),
    createDescribeSchemaTool(),
    createExecuteCommandTool(),
    createFileOperationsTool(),
    createHttpRequestTool(),
  ]);
  const guidance = loadPrompt('risk-guidance');
  for (const name of registry.names) expect(guidance).toContain(`\`${name}\``);
  expect(guidance).toMatch(/"low"/);
  expect(guidance).toMatch(/"high"/);
  expect(guidance).toMatch(/ask the person/);
});
