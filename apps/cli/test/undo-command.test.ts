import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog, Checkpoints } from '@riskgate/core';
import { judgeEffects } from '@riskgate/risk';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CommandContext, runSlashCommand } from '../src/ui/commands.js';

// /undo as the TUI runs it: the store, the audit log and the agent's note, against real files.
const root = mkdtempSync(join(tmpdir(), 'riskgate-undo-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let index = 0;
let workspace: string;
let checkpoints: Checkpoints;
let auditPath: string;

beforeEach(async () => {
  index += 1;
  workspace = join(root, `workspace-${index}`);
  mkdirSync(workspace);
  auditPath = join(root, `audit-${index}.jsonl`);
  checkpoints = new Checkpoints({ cwd: workspace, directory: join(root, `state-${index}`) });
  writeFileSync(join(workspace, 'a.txt'), 'before');
  const plan = checkpoints.plan(
    judgeEffects([{ kind: 'write-path', path: join(workspace, 'a.txt') }], { cwd: workspace }).effects,
  );
  const pending = await checkpoints.capture(plan!);
  writeFileSync(join(workspace, 'a.txt'), 'after');
  await checkpoints.commit(pending, { tool: 'file_operations', title: 'write a.txt' });
});

/** Runs a slash command and waits for its notice (/undo answers asynchronously). */
async function run(line: string, busy = false) {
  const notices: { text: string; tone?: string }[] = [];
  const addNote = vi.fn();
  const session = { checkpoints, audit: new AuditLog(auditPath), id: 'session-1', agent: { addNote } };
  const context = {
    session,
    conversation: { busy },
    notice: (text: string, tone?: string) => notices.push({ text, ...(tone === undefined ? {} : { tone }) }),
  } as unknown as CommandContext;
  runSlashCommand(line, context);
  await vi.waitFor(() => expect(notices.length).toBeGreaterThan(0));
  return { notices, addNote };
}

describe('/undo', () => {
  it('waits while the model works, but lists', async () => {
    const { notices } = await run('/undo', true);
    expect(notices).toEqual([{ text: '/undo waits until the model has finished (Esc stops it)', tone: 'error' }]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('after');
    expect((await run('/undo list', true)).notices[0]?.text).toMatch(/1\. \d\d:\d\d:\d\d file_operations write a\.txt/);
  });

  it('restores, audits as the person, and tells the model the paths', async () => {
    const { notices, addNote } = await run('/undo');
    expect(notices[0]?.text).toMatch(
      /^undone: file_operations write a\.txt\n {2}puts back .*a\.txt \(6 bytes, mode 6\d\d\)/,
    );
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('before');
    expect(addNote).toHaveBeenCalledWith(expect.stringContaining(join(workspace, 'a.txt')));
    const [line] = readFileSync(auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(line).toMatchObject({
      tool: 'undo',
      session: 'session-1',
      decision: { action: 'execute', source: 'person' },
      outcome: 'succeeded',
    });
  });

  it('names a path changed since and how to force it, and changes nothing', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'edited by the person');
    const { notices, addNote } = await run('/undo');
    expect(notices[0]).toMatchObject({
      tone: 'error',
      text: expect.stringMatching(/a\.txt changed since .*\/undo 1 --force/s),
    });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('edited by the person');
    expect(addNote).not.toHaveBeenCalled();
  });

  it('says how many kept changes it leaves out (not signed by the store), and never restores them', async () => {
    const sets = join(await checkpoints.directory(), 'sets');
    const [signed] = readdirSync(sets);
    const forged = readFileSync(join(sets, signed!), 'utf8').split('\n').slice(1).join('\n');
    writeFileSync(join(sets, '000000000000001-deadbeef.json'), forged, { mode: 0o600 });
    const listed = (await run('/undo list')).notices[0]?.text;
    expect(listed).toMatch(/^kept changes, newest first/);
    expect(listed).toMatch(/\n1 kept change was left out: not signed by this store .*\/undo never restores it$/);
    expect(listed).not.toMatch(/\n2\. /);
    // The signed one undone and dropped: the forged one is still left out, and nothing is undone by it.
    rmSync(join(sets, signed!));
    expect((await run('/undo list')).notices[0]?.text).toMatch(/^nothing to undo: .*\n1 kept change was left out/);
    expect((await run('/undo')).notices[0]).toMatchObject({
      tone: 'error',
      text: expect.stringMatching(/nothing to undo/),
    });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('after');
  });

  it.each(['/undo abc', '/undo 0', '/undo 1 2'])('refuses %s with its usage', async (line) => {
    const { notices } = await run(line);
    expect(notices[0]).toMatchObject({
      tone: 'error',
      text: expect.stringMatching(/\/undo takes a change set number/),
    });
  });
});
