import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { assessSql } from '../src/index.js';
import { createTempSqlite } from './helpers.js';

// SQLite text is judged by SQLite alone (issue 20): PostgreSQL's grammar read it before, which
// loaded a WebAssembly parser for every SQLite session and judged PostgreSQL syntax, not SQLite's.
// With a database, SQLite's prepared statement decides (Statement.readonly); without one, the same
// statement prepared on an empty database where each table and column it names is stood in for.
const parser = vi.hoisted(() => ({ calls: 0 }));
vi.mock('libpg-query', () => ({
  loadModule: async () => {
    parser.calls++;
  },
  parseSync: () => {
    parser.calls++;
    throw new Error('PostgreSQL parser used for SQLite text');
  },
}));

const shop = createTempSqlite();
const database = new Database(shop.path);
afterAll(() => {
  database.close();
  shop.cleanup();
});

const judge = async (sql: string, withDatabase: boolean) =>
  assessSql(sql, withDatabase ? { dialect: 'sqlite', sqlite: database } : { dialect: 'sqlite' });
const whitelisted = async (sql: string, withDatabase: boolean) =>
  (await judge(sql, withDatabase)).effects.every((effect) => effect.kind === 'read-db' && effect.secret === undefined);

describe('SQLite text never goes through PostgreSQL’s parser', () => {
  it.each([
    ['SELECT o.id, c.name FROM orders o JOIN customers AS c ON c.id = o.customer_id WHERE o.status = ?', true],
    ["SELECT * FROM [orders] WHERE status GLOB 'p*' LIMIT 1, 2", true],
    ["EXPLAIN QUERY PLAN SELECT * FROM orders WHERE status = 'paid'", true],
    ['WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT x FROM c', true],
    ['SELECT a FROM t UNION ALL SELECT b FROM u', true],
    ['SELECT * FROM main.orders', true],
    ['DELETE FROM orders WHERE id = 1', false],
    ['WITH old AS (SELECT id FROM customers) DELETE FROM orders WHERE customer_id IN old', false],
    ['SELECT 1; DROP TABLE orders', false],
    ["SELECT load_extension('/tmp/evil.so')", false],
    ["SELECT * FROM t WHERE name ILIKE '%a%'", false],
    ['SELEC * FROM orders', false],
  ] as const)('%s: whitelisted %s, with and without the database', async (sql, expected) => {
    parser.calls = 0;
    const tables = /\b(t|u)\b/.test(sql);
    if (!tables) expect(await whitelisted(sql, true)).toBe(expected);
    expect(await whitelisted(sql, false)).toBe(expected);
    expect(parser.calls).toBe(0);
  });

  it('describes a write by what it changes, as before', async () => {
    const drop = await judge('DROP TABLE IF EXISTS orders', true);
    expect(drop.effects).toContainEqual(
      expect.objectContaining({ detail: 'DROP TABLE removes orders and all its rows' }),
    );
    const deleted = await judge('WITH x AS (SELECT 1) DELETE FROM orders', false);
    expect(deleted.plan.statements[0]!.analysis.writeTarget).toBe('orders');
    expect(deleted.effects).toContainEqual(
      expect.objectContaining({ detail: 'DELETE without WHERE removes every row of orders', severity: 'high' }),
    );
    expect(parser.calls).toBe(0);
  });

  it('names the tables a read reads, from the database or from what SQLite asked for', async () => {
    const sql = 'SELECT c.name, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name';
    for (const withDatabase of [true, false]) {
      const objects = (await judge(sql, withDatabase)).effects.map((effect) => 'object' in effect && effect.object);
      expect(new Set(objects)).toEqual(new Set(['customers', 'orders']));
    }
  });

  it('(the check is real: PostgreSQL text does go through the stand-in parser)', async () => {
    parser.calls = 0;
    await assessSql('SELECT 1', { dialect: 'postgres' });
    expect(parser.calls).toBeGreaterThan(0);
  });
});
