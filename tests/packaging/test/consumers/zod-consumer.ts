// A TypeScript consumer on its own zod (3.25+ through `zod/v4`, or 4): defines a tool with
// defineTool, gives it to the gated executor with the exported file tool, and runs gated calls.
// Type-checked with skipLibCheck off, then compiled and run by plain Node.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGatedExecutor } from '@riskgate/core';
import { defineTool, report, toolFunctionDefinition } from '@riskgate/risk';
import { createFileOperationsTool } from '@riskgate/tools-file';
import * as zodRoot from 'zod';
import { z } from 'zod/v4';

const notes: string[] = [];
const addNote = defineTool({
  name: 'add_note',
  description: 'Adds a note to notes.txt',
  noun: 'note',
  ruleStyle: 'text',
  parameters: z.object({ text: z.string().min(1).describe('The note') }),
  title: (args) => `add note ${args.text}`,
  assess: (args) => report([{ kind: 'write-path', path: join(process.cwd(), 'notes.txt') }], [args.text]),
  describe: (args) => ({ kind: 'generic', summary: args.text, details: [] }),
  execute: async (args) => {
    notes.push(args.text);
    return { type: 'tool-success', forModel: `noted: ${args.text}`, data: notes.length };
  },
});

const definition = toolFunctionDefinition(addNote);
assert.deepEqual(Object.keys(definition.parameters.properties as object).sort(), ['risk_level', 'text']);

const tools = [addNote, createFileOperationsTool()];
const refusing = createGatedExecutor({ tools, assess: { cwd: process.cwd() } });
const refused = await refusing.run({ id: '1', name: 'add_note', arguments: { text: 'a', risk_level: 'low' } });
assert.equal(refused.state, 'denied');
assert.deepEqual(notes, []);

const invalid = await refusing.run({ id: '2', name: 'add_note', arguments: { text: '' } });
assert.equal(invalid.state, 'denied');
assert.match(invalid.forModel, /invalid arguments: text/);

const asked: string[] = [];
const approving = createGatedExecutor({
  tools,
  assess: { cwd: process.cwd() },
  confirm: async (request) => {
    asked.push(request.toolName);
    return { type: 'approve' };
  },
});
const approved = await approving.run({ id: '3', name: 'add_note', arguments: '{"text":"b"}' });
assert.equal(approved.state, 'succeeded');
assert.equal(approved.forModel, 'noted: b');
assert.deepEqual(notes, ['b']);
assert.deepEqual(asked, ['add_note']);

const listed = await approving.run({ id: '4', name: 'file_operations', arguments: { operation: 'list', path: '.' } });
assert.equal(listed.state, 'succeeded');
assert.deepEqual(asked, ['add_note']); // a listing is whitelisted: it ran unasked
assert.equal(existsSync('notes.txt'), false);
// On zod 3 the package root is zod 3's own API: such a schema is refused in words.
const zod = JSON.parse(readFileSync(join('node_modules', 'zod', 'package.json'), 'utf8')) as { version: string };
if (zod.version.startsWith('3.')) {
  const classic = zodRoot.z.object({ text: zodRoot.z.string() });
  assert.throws(
    () => toolFunctionDefinition({ ...addNote, parameters: classic } as never),
    /import \{ z \} from 'zod\/v4'/,
  );
}
console.log(`zod-consumer ok (zod ${zod.version})`);
