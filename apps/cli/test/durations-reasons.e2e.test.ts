import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { e2eScene, pause, settle } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

describe('durations are the operation’s own', () => {
  it('TUI: the time the person took to answer is neither in the shown duration nor in the audit log’s durationMs (it is waitedMs)', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'touch made.txt' } }] },
      { text: 'Made.' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && node ${BIN}'`, env);
    await terminal.waitFor(/chat · smart · scripted-model/);
    terminal.type('make it', true);
    await terminal.waitFor(/Execute this command\?/);
    await settle();
    // The person thinks for two seconds.
    await pause(2_000);
    terminal.type('y');
    const screen = await terminal.waitFor(/Made\./);
    expect(existsSync(join(directory, 'made.txt'))).toBe(true);
    const shown = /✓ touch made\.txt \((\d+) ms\)/.exec(screen);
    expect(shown).not.toBeNull();
    expect(Number(shown![1])).toBeLessThan(1_500);
    const entry = JSON.parse(
      readFileSync(join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .at(-1)!,
    );
    expect(entry).toMatchObject({ tool: 'execute_command', answer: 'approve', outcome: 'succeeded' });
    expect(entry.durationMs).toBeLessThan(1_500);
    expect(entry.waitedMs).toBeGreaterThanOrEqual(2_000);
  });

  it('headless: a call that was not asked about has no waitedMs; one that did not run lasted 0 ms', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT 1 AS one' } }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'DROP TABLE t' } }] },
      { text: 'Done.' },
    ]);
    const database = join(directory, 'd.sqlite');
    new Database(database).exec('CREATE TABLE t (a)').close();
    const result = await runCli(['sql', '--db', database, '-p', 'go'], { env });
    expect(result.code).toBe(2);
    // The outcome lines (the SELECT that ran also has its write-ahead "started" line before it).
    const [select, drop] = readFileSync(join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.outcome !== 'started');
    expect(select).toMatchObject({ answer: 'not-asked', outcome: 'succeeded' });
    expect(select).not.toHaveProperty('waitedMs');
    expect(drop).toMatchObject({ outcome: 'denied', durationMs: 0 });
  });
});

describe('reasons name their code once', () => {
  it.each([
    ['a syntax error', 'SELEC 1', 'sql-syntax-error', 'near "SELEC": syntax error'],
    ['a missing table', 'SELECT * FROM nope', 'sql-missing-table', 'no such table: nope'],
  ])('headless and the model: %s reads "error (code): message"', async (_, sql, code, message) => {
    const { directory, env, server } = await scene.start([
      { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
      { text: 'Failed.' },
    ]);
    const database = join(directory, 'd.sqlite');
    new Database(database).exec('CREATE TABLE t (a)').close();
    const result = await runCli(['sql', '--db', database, '--yes', '-p', 'go'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`error (${code}): ${message}`);
    expect(result.stderr).not.toContain(`${code}: ${code}`);
    // What the model was told, in the request after the call.
    expect(JSON.stringify(server.requests.at(-1))).toContain(`error (${code}): ${message.replaceAll('"', '\\"')}`);
  });

  it('TUI: the failed call shows the code once', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELEC 1' } }] },
      { text: 'Failed.' },
    ]);
    const database = join(directory, 'd.sqlite');
    new Database(database).exec('CREATE TABLE t (a)').close();
    const terminal = scene.open(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('go', true);
    await terminal.waitFor(/Execute this query\?/);
    await settle();
    terminal.type('y');
    const screen = await terminal.waitFor(/Failed\./);
    expect(screen).toContain('error (sql-syntax-error): near "SELEC": syntax error');
    expect(screen).not.toContain('sql-syntax-error: sql-syntax-error');
  });
});
