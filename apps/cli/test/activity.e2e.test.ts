import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { e2eScene } from './e2e-setup.js';
import { BIN, runCli } from './run-cli.js';

const scene = e2eScene();

function shop(directory: string): string {
  const path = join(directory, 'shop.sqlite');
  const db = new Database(path);
  db.exec(
    "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL); INSERT INTO orders (status) VALUES ('paid'), ('paid'), ('cancelled');",
  );
  db.close();
  return path;
}

const sql = (text: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: 'execute_sql', arguments: { sql: text, ...extra } }],
});

describe('what ran without a panel is shown', () => {
  it('TUI: a DELETE the model rated low shows the statement, its count, and the disagreement', async () => {
    const { directory, env } = await scene.start([
      sql('DELETE FROM orders', { risk_level: 'low' }),
      { text: 'Emptied.' },
    ]);
    const database = shop(directory);
    const terminal = scene.open(`node ${BIN} sql --db ${database}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('empty orders', true);
    const screen = await terminal.waitFor(/Emptied\./);
    expect(screen).toContain('✓ 3 rows changed');
    expect(screen).toMatch(/✓ 3 rows changed\n\s*DELETE FROM orders\n/);
    expect(screen).toMatch(
      /⚠ ran without asking: the model rated it low, but the code rated it high \(DELETE without WHERE removes every\s+row of orders\)/,
    );
    expect(screen).not.toContain('Execute this query?');
  });

  it('TUI: a read-only SELECT says nothing about asking', async () => {
    const { directory, env } = await scene.start([sql('SELECT count(*) AS n FROM orders'), { text: 'Three.' }]);
    const terminal = scene.open(`node ${BIN} sql --db ${shop(directory)}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('count', true);
    const screen = await terminal.waitFor(/Three\./);
    expect(screen).not.toContain('ran without asking');
  });

  it('headless text: each operation, why it ran unasked, its state and result on stderr; the answer alone on stdout', async () => {
    const { directory, env } = await scene.start([
      sql('SELECT status FROM orders ORDER BY id'),
      sql('DELETE FROM orders', { risk_level: 'low' }),
      { text: 'All gone.' },
    ]);
    const database = shop(directory);
    const result = await runCli(['sql', '--db', database, '-p', 'list then empty'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('All gone.\n');
    expect(result.stderr).toMatch(
      /\[execute_sql\] SELECT status FROM orders ORDER BY id\n {2}→ succeeded\n {4}status\n {4}paid\n/,
    );
    expect(result.stderr).toMatch(
      /\[execute_sql\] DELETE FROM orders\n {2}warning: ran without asking: the model rated it low, but the code rated it high .*\n {2}does: DELETE without WHERE removes every row of orders\n {2}→ succeeded\n {4}OK, 3 rows affected/,
    );
  });

  it('headless text: a long result is folded and says how much is not shown', async () => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'seq 1 100' } }] },
      { text: 'Counted.' },
    ]);
    const result = await runCli(['-p', 'count'], { env: { ...env }, cwd: directory });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /\[execute_command\] seq 1 100\n {2}→ succeeded\n {4}1\n[\s\S]* {4}… 8\d more lines not shown[\s\S]* {4}100\n {4}\[exit code 0/,
    );
  });
});
