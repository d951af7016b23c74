import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '@riskgate/tools-sql';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutputGuard, runGatedToolCall } from '../src/index.js';

// End to end: an application's database through the gated executor and the real SQL tool. What
// ran unasked must not hand the model a credential column's values or a secret key's value; the
// person's copy keeps them; what the person approved passes unchanged. On the old code every
// password below reached the model.
const directory = mkdtempSync(join(tmpdir(), 'riskgate-sql-secrets-'));
const PASSWORDS = [
  'hunter2hunter2',
  'Zq7mW2xP9kL4',
  'correct-horse-battery',
  '$2b$12$KIXQJQm0j3zq8f9Yk3mZ1eJp6Y2l8Q8r1Vw4bX9s7tC2dE5fG6hI.',
];
let connection: SqlConnection;
beforeAll(async () => {
  const path = join(directory, 'app.sqlite');
  const database = new Database(path);
  database.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, password TEXT, encrypted_password TEXT, password_changed_at TEXT);
    INSERT INTO users VALUES (1, 'ada@example.com', '${PASSWORDS[0]}', '${PASSWORDS[3]}', '2026-01-02');
    CREATE TABLE settings (key TEXT, value TEXT);
    INSERT INTO settings VALUES ('smtp_password', '${PASSWORDS[1]}'), ('theme', 'dark'), ('db_pass', '${PASSWORDS[2]}');
    CREATE VIEW contacts AS SELECT email, password AS note FROM users;`);
  database.close();
  const opened = await openSqlConnection(path);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
});
afterAll(async () => {
  await connection.close();
  rmSync(directory, { recursive: true, force: true });
});

const run = (sql: string, approve: boolean) => {
  const tool = createExecuteSqlTool({ connection });
  return runGatedToolCall(
    { id: 'call', name: tool.name, arguments: { sql } },
    {
      tools: [tool],
      policy: { mode: 'smart', rules: [] },
      assess: { cwd: directory, dialect: 'sqlite' },
      outputGuard: createOutputGuard({ env: {} }),
      ...(approve ? { confirm: async () => ({ type: 'approve' as const }) } : {}),
    },
  );
};

describe('credential columns of an application database', () => {
  it.each([
    'SELECT * FROM users',
    'SELECT * FROM settings',
    'SELECT key, value FROM settings',
    'SELECT * FROM users, settings',
  ])('%s runs unasked and the model gets no password', async (sql) => {
    const outcome = await run(sql, false);
    expect(outcome.state).toBe('succeeded');
    for (const password of PASSWORDS) expect(outcome.forModel).not.toContain(password);
    expect(outcome.forModel).toMatch(/\[withheld: the value/);
    // The person sees the original, and what was withheld.
    expect(outcome.forPerson).toMatch(/withheld from the model: /);
    // The rest of the row still reaches the model.
    expect(outcome.forModel).toMatch(sql.includes('users') ? /ada@example\.com/ : /theme \| dark/);
    if (sql.includes('users')) expect(outcome.forModel).toContain('2026-01-02');
  });

  it.each([
    'SELECT password FROM users',
    "SELECT email || ' ' || encrypted_password FROM users",
    "SELECT value FROM settings WHERE key = 'smtp_password'",
    // A view renaming the password (it ran unasked and the model got it as `note`).
    'SELECT * FROM contacts',
    'SELECT note FROM contacts',
  ])('%s is asked, and nothing runs without the person', async (sql) => {
    const outcome = await run(sql, false);
    expect(outcome.state).toBe('denied');
    for (const password of PASSWORDS) expect(outcome.forModel).not.toContain(password);
  });

  it("a schema description runs unasked and keeps the password column's type", async () => {
    const outcome = await run("SELECT * FROM pragma_table_info('users')", false);
    expect(outcome.state).toBe('succeeded');
    expect(outcome.forModel).toMatch(/password \| TEXT/);
    expect(outcome.forModel).not.toContain('withheld');
  });

  it('what the person approved passes unchanged', async () => {
    const outcome = await run('SELECT password FROM users', true);
    expect(outcome.state).toBe('succeeded');
    expect(outcome.forModel).toContain(PASSWORDS[0]);
  });
});
