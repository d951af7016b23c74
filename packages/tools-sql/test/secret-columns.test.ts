import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatementResult } from '../src/sql-results.js';
import { withholdSecretColumns } from '../src/withhold-columns.js';
import { judgeSql } from './helpers.js';

// A credential column named anywhere in a statement is a secret read: the value could leave
// under another name (an alias, an expression, a WHERE used as an oracle), where no guard of the
// result can see it. On the old code every row below ran unasked and returned the value.
const directory = mkdtempSync(join(tmpdir(), 'riskgate-secret-columns-'));
const sqlite = new Database(join(directory, 'app.sqlite'));
sqlite.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, password TEXT, encrypted_password TEXT, "refreshToken" TEXT, api_key TEXT, otp_secret TEXT,
  password_changed_at TEXT, token_count INTEGER, session_id TEXT);
CREATE TABLE settings (key TEXT, value TEXT);`);
afterAll(() => {
  sqlite.close();
  rmSync(directory, { recursive: true, force: true });
});

const dialects = [
  ['postgres', (sql: string) => judgeSql(sql, { dialect: 'postgres' })],
  ['sqlite (database)', (sql: string) => judgeSql(sql, { dialect: 'sqlite', sqlite })],
  ['sqlite (no database)', (sql: string) => judgeSql(sql, { dialect: 'sqlite' })],
  ['mysql', (sql: string) => judgeSql(sql, { dialect: 'mysql' })],
] as const;

const SECRET_READS = [
  'SELECT password FROM users',
  'SELECT email, password AS p FROM users',
  "SELECT email || ':' || password FROM users",
  'SELECT hex(password) FROM users',
  'SELECT upper(encrypted_password) FROM users',
  "SELECT id FROM users WHERE password LIKE 'a%'",
  "SELECT count(*) FROM users WHERE substr(api_key, 1, 1) = 's'",
  'SELECT "refreshToken" FROM users',
  'SELECT u.otp_secret FROM users u',
  'SELECT * FROM (SELECT api_key AS k FROM users) t',
  'WITH x AS (SELECT password AS harmless FROM users) SELECT harmless FROM x',
  "SELECT value FROM settings WHERE key = 'smtp_password'",
  "SELECT value FROM settings WHERE key IN ('theme', 'stripe_secret')",
  'SELECT PASSWORD FROM USERS',
];
const PLAIN_READS = [
  'SELECT id, email FROM users',
  'SELECT email, password_changed_at, token_count, session_id FROM users',
  "SELECT value FROM settings WHERE key = 'theme'",
  'SELECT key, value FROM settings',
  "SELECT 'password' IS NULL",
];

// PostgreSQL's whole-row values: every column (the password among them) under no column name.
const WHOLE_ROWS = [
  'SELECT u FROM users u',
  'SELECT u::text FROM users u',
  'SELECT users FROM users',
  'SELECT array_agg(u) FROM users u',
  "SELECT string_agg(t::text, ',') FROM users t",
  'SELECT ROW(u.*) FROM users u',
  'SELECT (u.*)::text FROM users u',
  'SELECT x FROM (SELECT * FROM users) x',
  'WITH w AS (SELECT * FROM users) SELECT w FROM w',
  'SELECT format($$%s$$, u) FROM users u',
];
const POSTGRES_ROW_READS = [
  'SELECT u.* FROM users u',
  'SELECT u.id, u.email FROM users u',
  'SELECT (u).id FROM users u',
  'SELECT count(*) FROM users u',
];

describe('PostgreSQL whole rows', () => {
  it.each(WHOLE_ROWS)('%s is a secret read, asked', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'postgres' });
    expect(verdict.whitelisted).toBe(false);
    expect(verdict.effects.some((judged) => judged.verdict === 'secret' && judged.text.includes('whole rows'))).toBe(
      true,
    );
  });
  it.each(POSTGRES_ROW_READS)('%s names its columns and stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
});

describe('credential columns', () => {
  for (const [dialect, judge] of dialects) {
    it.each(SECRET_READS)(`${dialect}: %s is a secret read, asked`, async (sql) => {
      const verdict = await judge(sql);
      expect(verdict.whitelisted).toBe(false);
      expect(
        verdict.effects.some((judged) => judged.verdict === 'secret' && judged.text.includes('a credential')),
      ).toBe(true);
    });
  }
  it.each(PLAIN_READS.slice(0, 4))('sqlite (database): %s names no credential and stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite', sqlite })).whitelisted).toBe(true);
  });
  it.each(PLAIN_READS.slice(0, 4))('postgres: %s names no credential and stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
});

// Red-team rows (issue sql4): each ran unasked on the old code and handed the model the secret.
describe('JSON of a row taken apart is a whole-row read (PostgreSQL)', () => {
  it.each([
    'SELECT jsonb_each_text(to_jsonb(a)) FROM users a',
    "SELECT to_jsonb(a)->>'password' FROM users a",
    'SELECT to_jsonb(a)::text FROM users a',
    "SELECT string_agg(row_to_json(a)::text, ',') FROM users a",
    'SELECT * FROM users a, jsonb_each_text(to_jsonb(a))',
    'SELECT jsonb_each_text(j) FROM (SELECT to_jsonb(a) AS j FROM users a) s',
    'WITH w AS (SELECT row_to_json(a) AS j FROM users a) SELECT j FROM w',
  ])('%s is asked', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'postgres' });
    expect(verdict.whitelisted).toBe(false);
    expect(verdict.effects.some((judged) => judged.verdict === 'secret' && judged.text.includes('whole rows'))).toBe(
      true,
    );
  });
  it.each([
    'SELECT row_to_json(a) FROM users a',
    'SELECT json_agg(a) FROM users a',
    'SELECT id, to_jsonb(a) AS doc FROM users a',
  ])('%s keeps the keys for the output guard and runs', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
});

describe("other sessions' SQL text", () => {
  it.each([
    'SELECT query FROM pg_stat_activity',
    'SELECT * FROM pg_stat_activity',
    "SELECT * FROM pg_stat_activity WHERE state = 'active'",
    'SELECT a.pid, a.query FROM pg_catalog.pg_stat_activity a',
    'SELECT row_to_json(a) FROM pg_stat_activity a',
    'SELECT q FROM (SELECT query AS q FROM pg_stat_activity) s',
    'SELECT query, calls FROM pg_stat_statements',
    'SELECT * FROM public.pg_stat_statements',
    'SELECT * FROM pg_stat_get_activity(NULL)',
    'SELECT pg_stat_get_backend_activity(1)',
  ])('postgres: %s is a secret read', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'postgres' });
    expect(verdict.whitelisted).toBe(false);
    expect(verdict.effects.some((judged) => judged.verdict === 'secret')).toBe(true);
  });
  it.each([
    'SELECT pid, state, wait_event, query_start FROM pg_stat_activity',
    "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'",
  ])('postgres: %s stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
  it.each([
    'SHOW PROCESSLIST',
    'SHOW FULL PROCESSLIST',
    'SELECT INFO FROM information_schema.PROCESSLIST',
    'SELECT * FROM information_schema.processlist',
    'SELECT argument FROM mysql.general_log',
    'SELECT sql_text FROM mysql.slow_log',
    'SELECT SQL_TEXT FROM performance_schema.events_statements_current',
    'SELECT SQL_TEXT FROM performance_schema.events_statements_history',
    'SELECT SQL_TEXT FROM performance_schema.events_statements_history_long',
    'SELECT DIGEST_TEXT FROM performance_schema.events_statements_summary_by_digest',
    'SELECT PROCESSLIST_INFO FROM performance_schema.threads',
    'SELECT trx_query FROM information_schema.INNODB_TRX',
  ])('mysql: %s is a secret read', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'mysql' });
    expect(verdict.whitelisted).toBe(false);
    expect(verdict.effects.some((judged) => judged.verdict === 'secret')).toBe(true);
  });
  it.each([
    'SHOW TABLES',
    'SHOW STATUS',
    'SELECT * FROM information_schema.TABLES',
  ])('mysql: %s stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'mysql' })).whitelisted).toBe(true);
  });
});

// The key/value rule (a row whose text cell names a credential has its other values withheld)
// withheld schema: `SELECT * FROM pragma_table_info('users')` lost the type TEXT of the row
// describing the password column. It now withholds only what looks like a credential's value.
describe('the key/value rule withholds values, not schema', () => {
  const result = (statement: string, columns: string[], rows: unknown[][]): StatementResult => ({
    statement,
    columns: columns.map((name) => ({ name, type: null })),
    rows,
    truncated: false,
    affectedRows: null,
  });
  const withheldCells = (statement: StatementResult) => {
    const run = withholdSecretColumns({ statements: [statement], elapsedMs: 1, readOnly: true });
    return run === undefined
      ? []
      : run.result.statements[0]!.rows.flatMap((row) =>
          row.filter((cell) => typeof cell === 'string' && cell.includes('withheld')),
        );
  };
  it.each([
    result(
      "SELECT * FROM pragma_table_info('users')",
      ['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk'],
      [
        [2, 'password', 'TEXT', 0, null, 0],
        [3, 'api_key', 'varchar(255)', 1, null, 0],
      ],
    ),
    result(
      "SELECT * FROM information_schema.columns WHERE table_name = 'users'",
      ['table_catalog', 'table_schema', 'table_name', 'column_name', 'data_type', 'udt_name'],
      [['riskgate_test_4821', 'public', 'users', 'password', 'character varying', 'varchar']],
    ),
    result(
      'DESCRIBE users',
      ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'],
      [['password', 'varchar(255)', 'YES', '', null, '']],
    ),
    result(
      'SHOW COLUMNS FROM users',
      ['Field', 'Type', 'Null', 'Key', 'Default', 'Extra'],
      [['api_key', 'int(11) unsigned', 'NO', 'MUL', null, 'auto_increment']],
    ),
    result(
      'SELECT key, value FROM settings',
      ['key', 'value'],
      [
        ['smtp_password', 'dark'],
        ['api_token', 'enabled'],
      ],
    ),
  ])('$statement keeps its cells', (statement) => {
    expect(withheldCells(statement)).toEqual([]);
  });
  it.each([
    result('SELECT key, value FROM settings', ['key', 'value'], [['smtp_password', 'Zq7mW2xP9kL4']]),
    result('SELECT key, value FROM settings', ['key', 'value'], [['db_pass', 'correct-horse-battery']]),
    result('SELECT key, value FROM settings', ['key', 'value'], [['stripe_secret', 'abcdefghijklmnop']]),
    result(
      "SELECT k AS name, v AS type FROM cfg, pragma_table_info('cfg')",
      ['name', 'type'],
      [['smtp_password', 'Zq7mW2xP9kL4']],
    ),
    result(
      "SELECT * FROM pragma_table_info('users')",
      ['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk'],
      [[2, 'password', 'TEXT', 0, "'changeme-2024'", 0]],
    ),
  ])('$statement withholds the value', (statement) => {
    expect(withheldCells(statement)).toHaveLength(1);
  });
});
