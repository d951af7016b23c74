import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene, settle } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

// Issue 21: an approved write, a created file and an approved `rm` through the real CLI in a real
// terminal, each taken back with /undo — byte for byte and mode for mode — and the model told.
const scene = e2eScene();

/** Every byte value: "byte for byte" on more than text; the marker shows whether the content ever reaches the model. */
const MARKER = 'kept-content-marker-5f2c';
const BINARY = Buffer.concat([
  Buffer.from(MARKER),
  Buffer.from(Array.from({ length: 1000 }, (_, byte) => (byte * 7) % 256)),
]);

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('/undo', { timeout: 180_000 }, () => {
  it('puts back an approved write byte for byte and removes a created file, and the model learns of it', async () => {
    const { directory, env, server } = await scene.start([
      {
        toolCalls: [
          { name: 'file_operations', arguments: { operation: 'write', path: 'notes.bin', content: 'new\n' } },
        ],
      },
      { text: 'Rewritten.' },
      {
        toolCalls: [
          {
            name: 'file_operations',
            arguments: { operation: 'write', path: 'made/deep/fresh.txt', content: 'fresh\n', create_parents: true },
          },
        ],
      },
      { text: 'Created.' },
      { text: 'Understood.' },
    ]);
    writeFileSync(join(directory, 'notes.bin'), BINARY);
    chmodSync(join(directory, 'notes.bin'), 0o640);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('rewrite notes.bin', true);
    const panel = await terminal.waitFor(/Execute this file operation\?/);
    expect(panel).toContain('/undo can put back: notes.bin');
    await settle();
    terminal.type('y');
    await terminal.waitFor(/Rewritten\./);
    expect(readFileSync(join(directory, 'notes.bin'), 'utf8')).toBe('new\n');
    terminal.type('/undo', true);
    await terminal.waitFor(/undone: file_operations write notes\.bin/);
    expect(readFileSync(join(directory, 'notes.bin')).equals(BINARY)).toBe(true);
    expect(statSync(join(directory, 'notes.bin')).mode & 0o7777).toBe(0o640);

    terminal.type('create a fresh file', true);
    const created = await terminal.waitFor(/Execute this file operation\?/);
    expect(created).toContain('/undo can put back: made');
    await settle();
    terminal.type('y');
    await terminal.waitFor(/Created\./);
    expect(readFileSync(join(directory, 'made/deep/fresh.txt'), 'utf8')).toBe('fresh\n');
    terminal.type('/undo', true);
    await terminal.waitFor(/removes made \(it did not exist\)/);
    expect(existsSync(join(directory, 'made'))).toBe(false);

    // The next request carries the notes: the model does not think the files still hold its writes.
    terminal.type('what now?', true);
    await terminal.waitFor(/Understood\./);
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(count(sent, /Note from riskgate: the person ran \/undo/)).toBe(2);
    expect(sent).toContain(join(directory, 'notes.bin'));
    // Never the kept content: only paths.
    expect(sent).not.toContain(MARKER);
    const audit = jsonLines(join(directory, 'state', 'riskgate', 'audit.jsonl'));
    expect(audit.filter((line) => line.tool === 'undo')).toHaveLength(2);
    const sessions = join(directory, 'state', 'riskgate', 'sessions');
    const transcript = readdirSync(sessions)
      .map((name) => readFileSync(join(sessions, name), 'utf8'))
      .join('\n');
    expect(transcript).toContain('the person ran /undo');
  });

  it('brings back what an approved rm deleted, lists what it keeps, and says what cannot be undone', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'rm keep.bin' } }] },
      { text: 'Deleted.' },
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'python3 script.py' } }] },
      { text: 'Not run then.' },
    ]);
    writeFileSync(join(directory, 'keep.bin'), BINARY);
    chmodSync(join(directory, 'keep.bin'), 0o600);
    writeFileSync(join(directory, 'script.py'), 'print(1)\n');
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('delete keep.bin', true);
    const panel = await terminal.waitFor(/Execute this command\?/);
    expect(panel).toContain('/undo can put back: keep.bin');
    await settle();
    terminal.type('y');
    await terminal.waitFor(/Deleted\./);
    expect(existsSync(join(directory, 'keep.bin'))).toBe(false);
    terminal.type('/undo list', true);
    await terminal.waitFor(
      /1\. \d\d:\d\d:\d\d execute_command rm keep\.bin\n\s+puts back keep\.bin \(1,024 bytes, mode 600\)/,
    );
    terminal.type('/undo 1', true);
    await terminal.waitFor(/undone: execute_command rm keep\.bin/);
    expect(readFileSync(join(directory, 'keep.bin')).equals(BINARY)).toBe(true);
    expect(statSync(join(directory, 'keep.bin')).mode & 0o7777).toBe(0o600);
    terminal.type('/undo', true);
    await terminal.waitFor(/not undone: nothing to undo/);

    terminal.type('run the script', true);
    const unknown = await terminal.waitFor(/Execute this command\?/);
    expect(unknown).toMatch(
      /cannot be undone: python3 runs script\.py, which riskgate does not read \(what it changes is\s+not known\)|cannot be undone: python3 runs script\.py/,
    );
    await settle();
    terminal.type('n');
    await terminal.waitFor(/Not run then\./);
  });

  it('riskgate -p keeps a change set too, and riskgate undo puts it back outside a session', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'sed -i s/old/new/ conf.txt' } }] },
      { text: 'Edited.' },
    ]);
    writeFileSync(join(directory, 'conf.txt'), 'old value\n');
    chmodSync(join(directory, 'conf.txt'), 0o604);
    const run = await runCli(['-p', '--yes', 'edit conf.txt'], { env, cwd: directory });
    expect(run.code).toBe(0);
    expect(readFileSync(join(directory, 'conf.txt'), 'utf8')).toBe('new value\n');
    const list = await runCli(['undo', 'list'], { env, cwd: directory });
    expect(list.stdout).toMatch(
      /1\. \d\d:\d\d:\d\d execute_command sed -i s\/old\/new\/ conf\.txt\n\s+puts back conf\.txt/,
    );
    const undo = await runCli(['undo'], { env, cwd: directory });
    expect(undo).toMatchObject({ code: 0, stdout: expect.stringContaining('undone: execute_command sed -i') });
    expect(readFileSync(join(directory, 'conf.txt'), 'utf8')).toBe('old value\n');
    expect(statSync(join(directory, 'conf.txt')).mode & 0o7777).toBe(0o604);
    const again = await runCli(['undo'], { env, cwd: directory });
    expect(again).toMatchObject({ code: 1, stderr: 'not undone: nothing to undo\n' });
  });
});
