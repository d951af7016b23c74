import { describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection } from '../src/index.js';
import { intervalMs } from '../src/pg-sizes.js';
import { callTool, createTempPostgres, judgeSql } from './helpers.js';

// Memory the server spends on values and rows whose size is an argument (red team, issue sql4):
// the first row ran unasked on the old code and took ~1.9 GB in the PostgreSQL backend.
const UNBOUNDED = [
  "SELECT length(a) + length(b) FROM (SELECT repeat('x', 1000000000) a, repeat('y', 1000000000) b) s",
  "SELECT length(repeat('x', 2000000))",
  "SELECT length(lpad('x', 1000000000))",
  "SELECT length(rpad('x', 500000000, 'y'))",
  'SELECT cardinality(array_fill(0, ARRAY[100000, 10000]))',
  "SELECT cardinality(array_fill(0, '{100000000}'))",
  "SELECT length(string_agg(repeat('x', 100000), '')) FROM generate_series(1, 10000)",
  'SELECT sum(g) FROM generate_series(1, 1000000000) g',
  'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b',
  "SELECT length(format('%1000000000s', 'x'))",
  "SELECT length(format('%*s', 1000000000, 'x'))",
  'SELECT repeat(name, n) FROM t',
  'SELECT generate_series(1, max_id) FROM t',
  "SELECT count(*) FROM generate_series('2000-01-01'::timestamp, '2030-01-01', '1 second')",
];
const BOUNDED = [
  "SELECT repeat('-', 40), lpad(id::text, 6, '0'), rpad(name, 20) FROM t",
  'SELECT generate_series(1, 10)',
  'SELECT * FROM generate_series(1, 100000) g',
  "SELECT d::date FROM generate_series('2024-01-01'::date, '2024-12-31'::date, '1 day') d",
  "SELECT count(*) FROM generate_series(now() - interval '7 days', now(), interval '1 hour') h",
  "SELECT date_trunc('day', g) FROM generate_series(current_date - interval '30 days', current_date, '1 day'::interval) g",
  'SELECT array_fill(0, ARRAY[3, 4])',
  "SELECT format('%s has %10s', name, id) FROM t",
];

describe('PostgreSQL sizes riskgate cannot bound are asked', () => {
  it.each(UNBOUNDED)('%s', async (sql) => {
    const verdict = await judgeSql(sql, { dialect: 'postgres' });
    expect(verdict.whitelisted).toBe(false);
    expect(
      verdict.effects.some((judged) => judged.effect.kind === 'unbounded' && judged.effect.resource === 'memory'),
    ).toBe(true);
  });
  it.each(BOUNDED)('small literal sizes stay whitelisted: %s', async (sql) => {
    expect((await judgeSql(sql, { dialect: 'postgres' })).whitelisted).toBe(true);
  });
  it('reads intervals', () => {
    expect(intervalMs('1 day')).toBe(86_400_000);
    expect(intervalMs('2 hours 30 minutes')).toBe(9_000_000);
    expect(intervalMs('1 fortnight')).toBeUndefined();
  });
});

describe('whitelisted PostgreSQL reads', () => {
  it('run with temporary files capped at 1 GB when the role may set it (a superuser here)', async () => {
    const database = await createTempPostgres('');
    const connection = await openSqlConnection(database.url);
    try {
      if (isSqlFailure(connection)) throw new Error(connection.message);
      const outcome = await callTool(createExecuteSqlTool({ connection }), {
        sql: "SELECT current_setting('temp_file_limit') AS limit_now",
      });
      expect(outcome.asked).toBe(false);
      expect(JSON.stringify(outcome.result)).toContain('1GB');
    } finally {
      if (!isSqlFailure(connection)) await connection.close();
      await database.cleanup();
    }
  });
});
