// A consumer of @riskgate/core with a file tool: the gated executor, and prompt templates read
// from the installed package's files.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { createGatedExecutor } from '@riskgate/core';
import { loadPrompt } from '@riskgate/prompt';
import { createFileOperationsTool } from '@riskgate/tools-file';

assert.match(
  loadPrompt('system-chat', { tools: 'file_operations', workspace: process.cwd(), os: 'linux' }),
  /## Risk levels in tool calls/,
);
writeFileSync('note.txt', 'hello from the consumer\n');
const gate = createGatedExecutor({ tools: [createFileOperationsTool()], assess: { cwd: process.cwd() } });
const read = await gate.run({ id: '1', name: 'file_operations', arguments: { operation: 'read', path: 'note.txt' } });
assert.equal(read.state, 'succeeded');
assert.match(read.forModel, /hello from the consumer/);
const write = await gate.run({
  id: '2',
  name: 'file_operations',
  arguments: { operation: 'write', path: 'new.txt', content: 'x' },
});
assert.equal(write.state, 'denied');
assert.match(write.forModel, /needs the person's confirmation/);
assert.equal(existsSync('new.txt'), false);
console.log('core-gate ok');
