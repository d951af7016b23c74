import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
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
  'SELECT id FROM users WHERE password LIKE \'a%\'',
  'SELECT count(*) FROM users WHERE substr(api_key, 1, 1) = \'s\'',
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
const POSTGRES_ROW_READS = ['SELECT u.* FROM users u', 'SELECT u.id, u.email FROM users u', 'SELECT (u).id FROM users u', 'SELECT count(*) FROM users u'];

describe('PostgreSQL whole rows', () => {
  it.each(WHOLE_ROWS)('%s is a secret read, asked', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'postgres' });
    expect(verdict.whitelisted).toBe(false);
    expect(verdict.effects.some((judged) => judged.verdict === 'secret' && judged.text.includes('whole rows'))).toBe(true);
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
      expect(verdict.effects.some((judged) => judged.verdict === 'secret' && judged.text.includes('a credential'))).toBe(true);
    });
  }
  it.each(PLAIN_READS.slice(0, 4))('sqlite (database): %s names no credential and stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'sqlite', sqlite })).whitelisted).toBe(true);
  });
  it.each(PLAIN_READS.slice(0, 4))('postgres: %s names no credential and stays whitelisted', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
});
