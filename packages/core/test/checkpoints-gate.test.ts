import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRule } from '@riskgate/risk';
import { createExecuteCommandTool } from '@riskgate/tools-command';
import { createFileOperationsTool } from '@riskgate/tools-file';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  Checkpoints,
  type GateContext,
  runGatedToolCall,
} from '../src/index.js';

// The gate keeps a checkpoint around every executed call that writes, deletes or moves listed
// paths — asked or not — and the panel says what /undo can and cannot put back.
const root = mkdtempSync(join(tmpdir(), 'riskgate-checkpoint-gate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let index = 0;
let directory: string;
let asked: ApprovalRequest[];
let gate: GateContext;
let checkpoints: Checkpoints;

function answering(...answers: ApprovalAnswer[]) {
  return async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    asked.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`unexpected confirmation for ${request.toolName}`);
    return answer;
  };
}

beforeEach(() => {
  directory = join(root, `case-${index++}`);
  mkdirSync(directory, { recursive: true });
  asked = [];
  checkpoints = new Checkpoints({ cwd: directory, directory: join(directory, '..', `state-${index}`) });
  gate = {
    tools: [createFileOperationsTool(), createExecuteCommandTool()],
    policy: { mode: 'smart', rules: [] },
    assess: { cwd: directory },
    checkpoints,
  };
});

const call = (name: string, args: unknown) => ({ id: `call-${index}`, name, arguments: args });
const write = (path: string, content: string) => call('file_operations', { operation: 'write', path, content });

describe('checkpoints in the gate', () => {
  it('tells the panel what /undo can put back, and keeps it before an approved write', async () => {
    writeFileSync(join(directory, 'a.txt'), 'before');
    const outcome = await runGatedToolCall(write('a.txt', 'after'), {
      ...gate,
      confirm: answering({ type: 'approve' }),
    });
    expect(outcome.state).toBe('succeeded');
    expect(asked[0]?.undo).toEqual({ paths: ['a.txt'], cannot: [] });
    const [set] = await checkpoints.list();
    expect(set).toMatchObject({ tool: 'file_operations', title: 'write a.txt', toolCallId: `call-${index}` });
    await checkpoints.undo('last');
    expect(readFileSync(join(directory, 'a.txt'), 'utf8')).toBe('before');
  });

  it('keeps a checkpoint of a write that runs unasked (an allow rule)', async () => {
    const allow = parseRule('file_operations(write b.txt)', 'allow');
    if (!allow.ok) throw new Error(allow.error);
    const outcome = await runGatedToolCall(write('b.txt', 'made'), {
      ...gate,
      policy: { mode: 'smart', rules: [allow.rule] },
      confirm: answering(),
    });
    expect(outcome.state).toBe('succeeded');
    expect(asked).toEqual([]);
    await checkpoints.undo('last');
    expect(existsSync(join(directory, 'b.txt'))).toBe(false);
  });

  it("keeps what the person's edit changes, not what the model proposed", async () => {
    writeFileSync(join(directory, 'proposed.txt'), 'untouched');
    writeFileSync(join(directory, 'edited.txt'), 'before the edit ran');
    await runGatedToolCall(write('proposed.txt', 'x'), {
      ...gate,
      confirm: answering({ type: 'edit', args: { operation: 'write', path: 'edited.txt', content: 'edited' } }),
    });
    const [set] = await checkpoints.list();
    expect(set?.roots).toEqual([join(directory, 'edited.txt')]);
    await checkpoints.undo('last');
    expect(readFileSync(join(directory, 'edited.txt'), 'utf8')).toBe('before the edit ran');
  });

  it('says in the panel what cannot be undone, and records nothing for a call that changed no kept path', async () => {
    const outcome = await runGatedToolCall(call('execute_command', { command: 'python3 -c "print(1)"' }), {
      ...gate,
      confirm: answering({ type: 'deny' }),
    });
    expect(outcome.state).toBe('denied');
    expect(asked[0]?.undo?.paths).toEqual([]);
    expect(asked[0]?.undo?.cannot.join(' ')).toMatch(/python3.*not known/);
    expect(await checkpoints.list()).toEqual([]);
  });

  it('runs nothing when the copy for /undo cannot be made, and says so', async () => {
    writeFileSync(join(directory, 'c.txt'), 'before');
    const blocked = join(directory, 'not-a-directory');
    writeFileSync(blocked, 'a file where the store wants a folder');
    const outcome = await runGatedToolCall(write('c.txt', 'after'), {
      ...gate,
      checkpoints: new Checkpoints({ cwd: directory, directory: blocked }),
      confirm: answering({ type: 'approve' }),
    });
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toMatch(/checkpoint-failed.*could not keep a copy .*Nothing was run/);
    expect(readFileSync(join(directory, 'c.txt'), 'utf8')).toBe('before');
  });
});

/** Issue 21 attacks: a store that cannot be written stops the call before it runs, and says why. */
const BROKEN_STORES: [string, (store: string, project: string) => void][] = [
  [
    'a file where the store folder should be',
    (store) => {
      rmSync(store, { recursive: true });
      writeFileSync(store, 'x');
    },
  ],
  [
    'a file where the project folder should be',
    (_store, project) => {
      rmSync(project, { recursive: true });
      writeFileSync(project, 'x');
    },
  ],
  ['a file where blobs/ should be', (_store, project) => writeFileSync(join(project, 'blobs'), 'x')],
  ['a link to /dev/null where blobs/ should be', (_store, project) => symlinkSync('/dev/null', join(project, 'blobs'))],
];

describe('a store that cannot be written', () => {
  it.each(BROKEN_STORES)('%s: nothing runs, and the model and the person are told why', async (_name, breakIt) => {
    writeFileSync(join(directory, 'c.txt'), 'before');
    const store = join(directory, '..', `broken-${index}`);
    const broken = new Checkpoints({ cwd: directory, directory: store });
    const project = await broken.directory();
    breakIt(store, project);
    const outcome = await runGatedToolCall(write('c.txt', 'after'), {
      ...gate,
      checkpoints: new Checkpoints({ cwd: directory, directory: store }),
      confirm: answering({ type: 'approve' }),
    });
    expect(outcome.state).toBe('failed');
    expect(outcome.forModel).toMatch(/could not keep a copy .*Nothing was run/);
    expect(readFileSync(join(directory, 'c.txt'), 'utf8')).toBe('before');
  });

  it('a manifest folder (sets/) that cannot be written once the call ran: the person is told /undo will not have it', async () => {
    writeFileSync(join(directory, 'c.txt'), 'before');
    const store = join(directory, '..', `broken-sets-${index}`);
    const project = await new Checkpoints({ cwd: directory, directory: store }).directory();
    writeFileSync(join(project, 'sets'), 'x');
    const events: unknown[] = [];
    const outcome = await runGatedToolCall(write('c.txt', 'after'), {
      ...gate,
      checkpoints: new Checkpoints({ cwd: directory, directory: store }),
      confirm: answering({ type: 'approve' }),
      onEvent: (event) => events.push(event),
    });
    expect(outcome.state).toBe('succeeded');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'error',
        kind: 'checkpoint',
        message: expect.stringMatching(/\/undo will not have this change/),
      }),
    );
  });
});
