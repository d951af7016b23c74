import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHoldsSecret } from '@riskgate/risk';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

// `strings app.db` handed over a password column that execute_sql withholds: a SQLite file
// whose schema has a credential column (or a key/value table with a credential key) is secret.
describe('SQLite database files', () => {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-sqlite-content-'));
  const file = (name: string, sql: string) => {
    const path = join(directory, name);
    const database = new Database(path);
    database.exec(sql);
    database.close();
    return readFileSync(path).toString('utf8');
  };
  it.each([
    [
      'a users table with a password column',
      "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, password TEXT); INSERT INTO users VALUES (1, 'a@b.c', 'Sq1lL2iI3tT4eE5p')",
    ],
    ['a quoted token column', 'CREATE TABLE "sessions" ("id" INTEGER, "refreshToken" TEXT)'],
    [
      'a key/value table with a credential key',
      "CREATE TABLE kv (key TEXT, value TEXT); INSERT INTO kv VALUES ('smtp_pass', 'Kv1sS2mM3tT4pP5a')",
    ],
  ])('%s is secret', (name, sql) => {
    expect(contentHoldsSecret(file(`${name.replace(/\W+/g, '-')}.db`, sql))).toMatch(
      /a SQLite database with a credential/,
    );
  });
  it.each([
    [
      'a shop',
      'CREATE TABLE orders (id INTEGER, total_cents INTEGER, status TEXT); CREATE TABLE customers (id INTEGER, name TEXT, password_changed_at TEXT)',
    ],
    [
      'a settings table without credentials',
      "CREATE TABLE settings (key TEXT, value TEXT); INSERT INTO settings VALUES ('theme', 'dark')",
    ],
  ])('%s is not', (name, sql) => {
    expect(contentHoldsSecret(file(`${name.replace(/\W+/g, '-')}.db`, sql))).toBeUndefined();
  });
  it('cleans up', () => rmSync(directory, { recursive: true, force: true }));
});
