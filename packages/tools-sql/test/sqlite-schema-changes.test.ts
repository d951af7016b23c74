import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { callTool } from './helpers.js';

// The SQLite assessor keeps what it read of the schema (tables, views, columns, key/value keys,
// prepared statements) while the database is unchanged (sqlite-schema-snapshot.ts). These are the
// attacks on that cache: the schema or the data changes between two calls — from another process,
// or through riskgate's own connection — and the second call must be judged on the new state.
const PASSWORD = 'Pw1-Zq7mW2xP9kL4';

let directory = '';
let path = '';
let connection: SqlConnection;
let other: Database.Database;

beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'riskgate-schema-changes-'));
  path = join(directory, 'app.sqlite');
  other = new Database(path);
  other.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
    INSERT INTO users VALUES (1, 'ada', '${PASSWORD}');
    CREATE TABLE cfg (k TEXT PRIMARY KEY, v TEXT);
    INSERT INTO cfg VALUES ('theme', 'dark-blue-2');
    CREATE VIEW v_users AS SELECT id, name FROM users;`);
  const opened = await openSqlConnection(path);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
});
afterEach(async () => {
  await connection?.close();
  other?.close();
  if (directory !== '') rmSync(directory, { recursive: true, force: true });
});

/** What the model reads of a result that ran: the copy with the withheld values, when there is one. */
function forModel(result: unknown): string {
  const success = result as { forModel: string; withheldForModel?: { text: string } };
  return success.withheldForModel?.text ?? success.forModel;
}

const run = (sql: string, answer: 'yes' | 'no' | 'never-asked' = 'never-asked') =>
  callTool(createExecuteSqlTool({ connection }), { sql }, answer);

describe('a schema or data change between two calls is seen by the next call', () => {
  it('withholds a column renamed to password by another process since the last call', async () => {
    expect(forModel((await run('SELECT * FROM users')).result)).toContain(PASSWORD);
    other.exec('ALTER TABLE users RENAME COLUMN note TO password');
    const second = await run('SELECT * FROM users');
    expect(second.asked).toBe(false);
    const text = forModel(second.result);
    expect(text).not.toContain(PASSWORD);
    expect(text).toMatch(/withheld: the values of the column password/);
  });

  it('withholds a password column added by another process since the last call', async () => {
    await run('SELECT * FROM users');
    other.exec(`ALTER TABLE users ADD COLUMN password TEXT; UPDATE users SET password = '${PASSWORD}x'`);
    const text = forModel((await run('SELECT * FROM users')).result);
    expect(text).not.toContain(`${PASSWORD}x`);
    expect(text).toMatch(/withheld: the values of the column password/);
  });

  it('asks for a view redefined by another process to hand out the password', async () => {
    other.exec('ALTER TABLE users RENAME COLUMN note TO password');
    expect((await run('SELECT * FROM v_users')).asked).toBe(false);
    other.exec('DROP VIEW v_users; CREATE VIEW v_users AS SELECT id, password AS name FROM users');
    const second = await run('SELECT * FROM v_users', 'no');
    expect(second.asked).toBe(true);
    expect(second.decision.reasons.join(' ')).toMatch(/secret|credential/i);
  });

  it('asks for a key/value read once another process has added a credential key', async () => {
    expect((await run('SELECT v FROM cfg')).asked).toBe(false);
    other.exec(`INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')`);
    const second = await run('SELECT v FROM cfg', 'no');
    expect(second.asked).toBe(true);
    expect(second.decision.reasons.join(' ')).toMatch(/credential/i);
  });

  it("asks for a key/value read once riskgate's own confirmed write added a credential key", async () => {
    expect((await run('SELECT v FROM cfg')).asked).toBe(false);
    const write = await run(`INSERT INTO cfg VALUES ('api_token', '${PASSWORD}')`, 'yes');
    expect(write.ran).toBe(true);
    expect((await run('SELECT v FROM cfg', 'no')).asked).toBe(true);
  });
});

describe('the same on an in-memory database, whose writes go through the assessing connection', () => {
  it('asks for a key/value read once its own write added a credential key, and for a new view', async () => {
    const opened = await openSqlConnection(':memory:');
    if (isSqlFailure(opened)) throw new Error(opened.message);
    const memory = opened;
    const tool = createExecuteSqlTool({ connection: memory });
    try {
      await callTool(tool, { sql: 'CREATE TABLE cfg (k TEXT, v TEXT)' }, 'yes');
      await callTool(tool, { sql: "INSERT INTO cfg VALUES ('theme', 'dark-blue-2')" }, 'yes');
      expect((await callTool(tool, { sql: 'SELECT v FROM cfg' })).asked).toBe(false);
      await callTool(tool, { sql: `INSERT INTO cfg VALUES ('smtp_password', '${PASSWORD}')` }, 'yes');
      expect((await callTool(tool, { sql: 'SELECT v FROM cfg' }, 'no')).asked).toBe(true);
      await callTool(tool, { sql: 'CREATE TABLE accounts (id INT, pwd TEXT)' }, 'yes');
      await callTool(tool, { sql: 'CREATE VIEW plain AS SELECT id FROM accounts' }, 'yes');
      expect((await callTool(tool, { sql: 'SELECT * FROM plain' })).asked).toBe(false);
      await callTool(tool, { sql: 'DROP VIEW plain' }, 'yes');
      await callTool(tool, { sql: 'CREATE VIEW plain AS SELECT pwd AS id FROM accounts' }, 'yes');
      expect((await callTool(tool, { sql: 'SELECT * FROM plain' }, 'no')).asked).toBe(true);
    } finally {
      await memory.close();
    }
  });
});
