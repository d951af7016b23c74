// SQL assessor latency per statement, over a few hundred ordinary statements and the attack
// list, in every way riskgate judges SQL. Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assessSql, loadSqlParser } from '@riskgate/tools-sql';
import Database from 'better-sqlite3';
import { measure } from './stats.ts';

const tables = ['orders', 'customers', 'products', 'order_items', 'payments'];
const ordinary: string[] = [];
for (let index = 0; index < 60; index++) {
  const table = tables[index % tables.length]!;
  ordinary.push(
    `SELECT * FROM ${table} WHERE id = ${index}`,
    `SELECT id, count(*) FROM ${table} GROUP BY id HAVING count(*) > ${index} ORDER BY 2 DESC LIMIT 10`,
    `WITH recent AS (SELECT * FROM ${table} WHERE id > ${index}) SELECT count(*) FROM recent`,
    `UPDATE ${table} SET id = id WHERE id = ${index}`,
    `DELETE FROM ${table} WHERE id = ${index}`,
  );
}
const attacks = [
  'SELECT 1; DROP TABLE orders',
  'WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d',
  'EXPLAIN ANALYZE DELETE FROM orders',
  'SELECT pg_terminate_backend(pid) FROM pg_stat_activity',
  "COPY orders TO PROGRAM 'sh'",
  'SELECT * FROM orders FOR UPDATE',
];
const long = `SELECT * FROM orders WHERE id IN (${Array.from({ length: 2000 }, (_, index) => index).join(', ')})`;
const deep = `SELECT ${'('.repeat(200)}1${')'.repeat(200)}`;
const corpus = [...ordinary, ...attacks];

const directory = mkdtempSync(join(tmpdir(), 'riskgate-bench-'));
const sqlite = new Database(join(directory, 'b.sqlite'));
for (const table of tables) sqlite.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY)`);

const judges = {
  postgres: (sql: string) => assessSql(sql, { dialect: 'postgres' }),
  'sqlite (database)': (sql: string) => assessSql(sql, { dialect: 'sqlite', sqlite }),
  'sqlite (no database)': (sql: string) => assessSql(sql, { dialect: 'sqlite' }),
};

await loadSqlParser();
const results: Record<string, unknown> = { statements: corpus.length };
for (const [name, judge] of Object.entries(judges)) {
  for (const sql of corpus) await judge(sql); // warm up
  const timing = await measure(
    corpus.map((sql) => () => judge(sql)),
    5,
  );
  const worst: Record<string, number> = {};
  for (const [label, sql] of [
    ['2,000-value IN list (10,000+ chars)', long],
    ['200 nested parentheses', deep],
  ] as const) {
    const started = performance.now();
    await judge(sql);
    worst[label] = performance.now() - started;
  }
  results[name] = { ...timing, largeInputs: worst };
}
sqlite.close();
rmSync(directory, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(results)}\n`);
