import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eScene, pause, settle } from './e2e-setup.js';
import { BIN } from './run-cli.js';

const scene = e2eScene();

/** A $PAGER that keeps what it was given, so the test sees exactly what the person would page through. */
function recordingPager(directory: string): { env: Record<string, string>; paged: () => string } {
  const script = join(directory, 'pager.sh');
  const copy = join(directory, 'paged.txt');
  writeFileSync(script, `#!/bin/sh\ncat "$1" >> '${copy}'\n`, { mode: 0o755 });
  return { env: { PAGER: script }, paged: () => readFileSync(copy, 'utf8') };
}

describe('the confirmation panel in a real terminal never hides what it asks about', () => {
  it('a 2,000-line rewrite scrolls, refuses y until seen, opens whole in $PAGER, then writes', async () => {
    const before = Array.from({ length: 2000 }, (_, index) => `old line ${index + 1}`).join('\n');
    const after = Array.from({ length: 2000 }, (_, index) => `new line ${index + 1}`).join('\n');
    const { directory, env } = await scene.start([
      {
        toolCalls: [
          { name: 'file_operations', arguments: { operation: 'write', path: 'big.txt', content: `${after}\n` } },
        ],
        chunkSize: 4000,
      },
      { text: 'Rewritten.' },
    ]);
    writeFileSync(join(directory, 'big.txt'), `${before}\n`);
    const pager = recordingPager(directory);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, ...pager.env });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('rewrite big.txt', true);
    const panel = await terminal.waitFor(/Execute this file operation\?/);
    await settle();
    expect(panel).toMatch(/lines 1–\d+ of 4,00\d · [\d,]+ more below/);
    terminal.type('y');
    await terminal.waitFor(/lines of this operation have not been on screen/);
    expect(readFileSync(join(directory, 'big.txt'), 'utf8')).toContain('old line 1\n');
    terminal.key('End');
    await terminal.waitFor(/\+new line 2000/);
    terminal.type('v');
    await pause(300);
    expect(pager.paged()).toContain('-old line 1\n');
    expect(pager.paged()).toContain('+new line 2000');
    terminal.type('y');
    await terminal.waitFor(/Rewritten\./);
    expect(readFileSync(join(directory, 'big.txt'), 'utf8')).toBe(`${after}\n`);
  });

  it('long command output in the history keeps its end, says how much is folded, and /view shows it all', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'seq 1 500', risk_level: 'low' } }] },
      { text: 'Counted.' },
    ]);
    const pager = recordingPager(directory);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, ...pager.env });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('count', true);
    const screen = await terminal.waitFor(/Counted\./);
    const id = /… 48\d more lines not shown · \/view (\d+) shows all/.exec(screen)?.[1];
    expect(id).toBeDefined();
    expect(screen).toMatch(/500\n\[exit code 0, \d+ ms\]/);
    terminal.type(`/view ${id}`, true);
    await pause(500);
    const lines = pager.paged().split('\n');
    for (const value of [1, 250, 500]) expect(lines).toContain(String(value));
  });
});

describe('colour in a real terminal', () => {
  const sgrColour = /\u001B\[[\d;]*(3[1-7]|9[1-7]|38;5;\d+)m/;
  it.each([
    ['CI set, as on many machines', { CI: 'true' }, true],
    ['CI empty', { CI: '' }, true],
    ['NO_COLOR', { NO_COLOR: '1' }, false],
    ['NO_COLOR beats FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '3' }, false],
  ])('%s', async (_name, extra, coloured) => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'rm -rf build' } }] },
      { text: 'ok' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, { ...env, ...extra });
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('clean', true);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    expect(sgrColour.test(terminal.screenWithStyles())).toBe(coloured);
    terminal.type('n');
    await terminal.waitFor(/^ok$/m);
  });
});

describe('the audit log and /audit in a real terminal', () => {
  it('e: the edited statement runs and is what the log records, with the proposed one beside it; m keeps the note', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'rm -f three.txt' } }] },
      { text: 'Edited one done.' },
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'rm -f four.txt' } }] },
      { text: 'Kept it.' },
    ]);
    for (const name of ['three.txt', 'four.txt']) writeFileSync(join(directory, name), name);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('remove three', true);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    terminal.type('e');
    await terminal.waitFor(/Edit, then Enter/);
    await settle();
    terminal.key('C-u');
    terminal.type('rm -f four.txt', true);
    await terminal.waitFor(/Edited one done\./);
    expect(existsSync(join(directory, 'three.txt'))).toBe(true);
    expect(existsSync(join(directory, 'four.txt'))).toBe(false);
    writeFileSync(join(directory, 'four.txt'), 'again');
    terminal.type('remove four', true);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    terminal.type('m');
    await terminal.waitFor(/a note for the model/);
    await settle();
    terminal.type('keep four, it is new', true);
    await terminal.waitFor(/Kept it\./);
    // The outcome lines (the edited call also has its write-ahead "started" line before it).
    const lines = readFileSync(join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.outcome !== 'started');
    expect(lines[0]).toMatchObject({
      answer: 'edit',
      outcome: 'succeeded',
      args: { command: 'rm -f four.txt' },
      proposedArgs: { command: 'rm -f three.txt' },
    });
    expect(lines[1]).toMatchObject({ answer: 'deny', outcome: 'denied', note: 'keep four, it is new' });
    terminal.type('/audit', true);
    const screen = await terminal.waitFor(/note: keep four/);
    expect(screen).toContain('rm -f four.txt (edited from: rm -f three.txt)');
  });
});
