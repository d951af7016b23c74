import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { callTool, createTempMysql, createTempPostgres, type TempMysql, type TempPostgres } from './helpers.js';

// Views that rename a credential column (red team, issue sql4): `CREATE VIEW v1 AS SELECT name,
// pwd AS note FROM accounts`, then `SELECT * FROM v1`, ran unasked on the old code and handed the
// model the password as `note` — on PostgreSQL (views and materialized views), MariaDB and SQLite.
// Each engine here is the real one; the assessor reads the view's definition through the connection.
const PASSWORD = 'Pw1-Zq7mW2xP9kL4';
const ACCOUNTS = `CREATE TABLE accounts (id INT, name VARCHAR(40), pwd VARCHAR(40));
INSERT INTO accounts VALUES (1, 'ada', '${PASSWORD}');
CREATE VIEW v1 AS SELECT name, pwd AS note FROM accounts;
CREATE VIEW v_names AS SELECT id, name FROM accounts;
CREATE VIEW v_outer AS SELECT note AS remark FROM v1;`;

async function connect(url: string): Promise<SqlConnection> {
  const opened = await openSqlConnection(url);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  return opened;
}

async function expectAsked(connection: SqlConnection, sql: string) {
  const outcome = await callTool(createExecuteSqlTool({ connection }), { sql }, 'no');
  expect(outcome.asked).toBe(true);
  expect(outcome.decision.reasons.join(' ')).toMatch(/secret|credential|other sessions/i);
}

async function expectRunsWithoutSecret(connection: SqlConnection, sql: string, shows: string) {
  const outcome = await callTool(createExecuteSqlTool({ connection }), { sql });
  expect(outcome.asked).toBe(false);
  const text = JSON.stringify(outcome.result);
  expect(text).toContain(shows);
  expect(text).not.toContain(PASSWORD);
}

describe('PostgreSQL views over a credential column', () => {
  let database: TempPostgres;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempPostgres(`${ACCOUNTS}
      CREATE MATERIALIZED VIEW mv1 AS SELECT name, pwd AS note FROM accounts;
      CREATE MATERIALIZED VIEW mv_outer AS SELECT note AS remark FROM v1;
      CREATE VIEW v_json AS SELECT id, to_jsonb(a) AS j FROM accounts a;
      CREATE VIEW v_activity AS SELECT pid, query FROM pg_stat_activity;`);
    connection = await connect(database.url);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.cleanup();
  });
  it.each([
    'SELECT * FROM v1',
    'SELECT note FROM v1',
    'SELECT * FROM v_outer',
    'SELECT note FROM mv1',
    'SELECT * FROM mv1',
    'SELECT remark FROM mv_outer',
    'SELECT jsonb_each_text(to_jsonb(a)) FROM accounts a',
    'SELECT jsonb_each_text(j) FROM v_json',
    'SELECT * FROM v_activity',
  ])('%s is asked', async (sql) => expectAsked(connection, sql));
  it('a view of plain columns still runs unasked', async () =>
    expectRunsWithoutSecret(connection, 'SELECT * FROM v_names', 'ada'));
  it("pg_stat_activity's query column is asked; its other columns run", async () => {
    await expectAsked(connection, 'SELECT query FROM pg_stat_activity');
    await expectAsked(connection, 'SELECT * FROM pg_stat_activity');
    const outcome = await callTool(createExecuteSqlTool({ connection }), {
      sql: 'SELECT pid, state FROM pg_stat_activity',
    });
    expect(outcome.asked).toBe(false);
  });
});

// Key/value tables read without their key column (red team, issue sql4): `SELECT v FROM cfg WHERE
// k LIKE 'smtp%'` and `SELECT string_agg(v, ',') FROM cfg` ran unasked and returned the SMTP
// password — no credential named, no key beside the value for the output guard. With a
// connection PostgreSQL's key/value tables have their keys read at assessment time.
describe('PostgreSQL key/value tables read without their key column', () => {
  let database: TempPostgres;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempPostgres(`CREATE TABLE cfg (k text PRIMARY KEY, v text);
      INSERT INTO cfg VALUES ('smtp_host', 'mail.example.com'), ('smtp_password', '${PASSWORD}'), ('theme', 'dark');
      CREATE TABLE metrics (name varchar(40), value float8);
      INSERT INTO metrics VALUES ('cpu', 0.5), ('token_count', 12);`);
    connection = await connect(database.url);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.cleanup();
  });
  it.each([
    "SELECT v FROM cfg WHERE k LIKE 'smtp%'",
    "SELECT string_agg(v, ',') FROM cfg",
    'SELECT upper(c.v) FROM cfg c',
    'SELECT * FROM cfg',
  ])('%s is asked', async (sql) => expectAsked(connection, sql));
  it.each([
    ['SELECT k FROM cfg', 'smtp_password'],
    ['SELECT count(*) AS n FROM cfg', '3'],
    ['SELECT name, value FROM metrics', 'token_count'],
  ])('%s runs unasked', async (sql, shows) => expectRunsWithoutSecret(connection, sql, shows));
});

describe('SQLite key/value tables read without their key column', () => {
  let directory = '';
  let connection: SqlConnection;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-key-value-'));
    const path = join(directory, 'app.sqlite');
    const database = new Database(path);
    database.exec(`CREATE TABLE cfg (k TEXT PRIMARY KEY, v TEXT);
      INSERT INTO cfg VALUES ('smtp_host', 'mail.example.com'), ('smtp_password', '${PASSWORD}'), ('theme', 'dark');
      CREATE TABLE metrics (name TEXT, value REAL);
      INSERT INTO metrics VALUES ('cpu', 0.5);`);
    database.close();
    connection = await connect(path);
  });
  afterAll(async () => {
    await connection?.close();
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
  });
  it.each([
    "SELECT v FROM cfg WHERE k LIKE 'smtp%'",
    'SELECT group_concat(v) FROM cfg',
    "SELECT k || '=' || v FROM cfg",
  ])('%s is asked', async (sql) => expectAsked(connection, sql));
  it.each([
    ['SELECT k FROM cfg', 'smtp_password'],
    ['SELECT name, value FROM metrics', 'cpu'],
    // The key beside the value: the output guard withholds it.
    ['SELECT * FROM cfg', 'withheld'],
    ['SELECT k, v FROM cfg', 'withheld'],
  ])('%s runs unasked', async (sql, shows) => {
    const outcome = await callTool(createExecuteSqlTool({ connection }), { sql });
    expect(outcome.asked).toBe(false);
    expect(JSON.stringify(outcome.result)).toContain(shows);
  });
});

describe('MariaDB views over a credential column', () => {
  let database: TempMysql;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempMysql(`${ACCOUNTS}
      CREATE TABLE cfg (k VARCHAR(40) PRIMARY KEY, v TEXT);
      INSERT INTO cfg VALUES ('smtp_host', 'mail.example.com'), ('smtp_password', '${PASSWORD}'), ('theme', 'dark');
      CREATE TABLE metrics (name VARCHAR(40), value DOUBLE);
      INSERT INTO metrics VALUES ('cpu', 0.5);`);
    connection = await connect(database.url);
  });
  afterAll(async () => {
    await connection?.close();
    await database?.cleanup();
  });
  it.each([
    'SELECT * FROM v1',
    'SELECT note FROM v1',
    'SELECT * FROM v_outer',
    'SHOW PROCESSLIST',
    'SELECT INFO FROM information_schema.PROCESSLIST',
    // Key/value tables read without their key column.
    "SELECT v FROM cfg WHERE k LIKE 'smtp%'",
    'SELECT GROUP_CONCAT(v) FROM cfg',
    'SELECT * FROM cfg',
  ])('%s is asked', async (sql) => expectAsked(connection, sql));
  it('a view of plain columns still runs unasked', async () =>
    expectRunsWithoutSecret(connection, 'SELECT * FROM v_names', 'ada'));
  it.each([
    ['SELECT k FROM cfg', 'smtp_password'],
    ['SELECT name, value FROM metrics', 'cpu'],
  ])('%s runs unasked', async (sql, shows) => expectRunsWithoutSecret(connection, sql, shows));
});

describe('SQLite views over a credential column', () => {
  let directory = '';
  let connection: SqlConnection;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'riskgate-secret-views-'));
    const path = join(directory, 'app.sqlite');
    const database = new Database(path);
    database.exec(ACCOUNTS);
    database.close();
    connection = await connect(path);
  });
  afterAll(async () => {
    await connection?.close();
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
  });
  it.each(['SELECT * FROM v1', 'SELECT note FROM v1', 'SELECT * FROM "V_OUTER"'])('%s is asked', async (sql) =>
    expectAsked(connection, sql));
  it('a view of plain columns still runs unasked', async () =>
    expectRunsWithoutSecret(connection, 'SELECT * FROM v_names', 'ada'));
});
