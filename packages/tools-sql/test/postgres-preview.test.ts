import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { createTempPostgres, type TempPostgres, describeCall, executeCall } from './helpers.js';

/** Previews that cannot act, and session state that cannot leak, on the real server. */
let database: TempPostgres;
let connection: SqlConnection;
let victim: pg.Client;
let victimPid: number;

beforeAll(async () => {
  database = await createTempPostgres(`
    CREATE TABLE orders (id int PRIMARY KEY, status text);
    INSERT INTO orders SELECT g, CASE WHEN g % 2 = 0 THEN 'paid' ELSE 'open' END FROM generate_series(1, 10) g;
    CREATE TABLE audited (id int);
    INSERT INTO audited VALUES (1), (2);
    CREATE TABLE audit_log (n int);
    CREATE FUNCTION log_it() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO audit_log VALUES (1); RETURN OLD; END $$;
    CREATE TRIGGER audit BEFORE DELETE ON audited FOR EACH ROW EXECUTE FUNCTION log_it();
    CREATE TABLE serial_rows (id serial PRIMARY KEY, note text);
  `);
  const opened = await openSqlConnection(database.url);
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
  victim = new pg.Client({ connectionString: database.url });
  await victim.connect();
  victimPid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}, 60_000);
afterAll(async () => {
  await victim.end().catch(() => {});
  await connection.close();
  await database.cleanup();
});

const describeSql = async (sql: string) => {
  const tool = createExecuteSqlTool({ connection });
  const description = await describeCall(tool, { sql }, { cwd: '.' });
  return (description as { details: readonly string[] }).details.join('\n');
};

describe('the preview of a statement with a function riskgate does not vouch for executes nothing', () => {
  it.each([
    [
      'DELETE FROM orders WHERE pg_terminate_backend(%PID%)',
      /preview skipped: calls pg_terminate_backend, which a rollback cannot undo/,
    ],
    ["UPDATE orders SET status = 'x' WHERE pg_cancel_backend(%PID%)", /preview skipped: calls pg_cancel_backend/],
    ['DELETE FROM orders WHERE (%PID%).pg_terminate_backend', /preview skipped: calls pg_terminate_backend/],
    ['DELETE FROM orders WHERE id IN (SELECT 1 WHERE pg_terminate_backend(%PID%))', /preview skipped/],
    ["INSERT INTO orders SELECT 100, 'x' WHERE pg_terminate_backend(%PID%)", /preview skipped/],
  ])('%s', async (template, expected) => {
    const details = await describeSql(template.replaceAll('%PID%', String(victimPid)));
    expect(details).toMatch(expected);
    // A second connection proves it: the victim's backend is alive and answers.
    const alive = await victim.query<{ one: number }>('SELECT 1 AS one');
    expect(alive.rows[0]!.one).toBe(1);
  });

  it.each([
    ['DELETE FROM orders WHERE pg_advisory_lock(4242) IS NOT NULL'],
    ["UPDATE orders SET status = 'x' WHERE pg_try_advisory_lock(4242)"],
    ['DELETE FROM orders WHERE (4242::bigint).pg_advisory_lock IS NOT NULL'],
  ])('no advisory lock is held after the preview of %s', async (sql) => {
    const details = await describeSql(sql);
    expect(details).toMatch(/preview skipped/);
    const locks = await victim.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks.rowCount).toBe(0);
  });

  it('a sequence is not advanced by the preview', async () => {
    await victim.query("CREATE SEQUENCE IF NOT EXISTS s; SELECT setval('s', 5)");
    const details = await describeSql("DELETE FROM orders WHERE id = nextval('s')");
    expect(details).toMatch(/preview skipped: calls nextval/);
    expect((await victim.query<{ v: string }>('SELECT last_value::text AS v FROM s')).rows[0]!.v).toBe('5');
  });

  it('a trigger is a reason not to run the preview, and the planner estimate is shown instead', async () => {
    const details = await describeSql('DELETE FROM audited WHERE id = 1');
    expect(details).toMatch(/preview skipped: audited has trigger audit \(log_it\), which a preview would run/);
    expect(details).toMatch(/would delete about \d+ rows? of audited \(the planner's estimate\)/);
    expect(await database.count('audit_log')).toBe(0);
  });

  it('a column default that advances a sequence stops an INSERT preview', async () => {
    const details = await describeSql("INSERT INTO serial_rows (note) VALUES ('a')");
    expect(details).toMatch(/preview skipped: a column default of serial_rows .*nextval/);
  });

  it('statements whose every function is vouched for still get the exact, rolled-back count', async () => {
    const details = await describeSql("DELETE FROM orders WHERE status = lower('PAID') AND id < 100");
    expect(details).toMatch(/would delete 5 rows of orders/);
    expect(await database.count('orders')).toBe(10);
  });
});

describe('session state cannot leak into later whitelisted statements', () => {
  it('SET standard_conforming_strings = off does not change how a later SELECT is read', async () => {
    const tool = createExecuteSqlTool({ connection });
    const context = { cwd: '.', signal: new AbortController().signal };
    // Several times: the pool has more than one connection, each must come back clean.
    for (let round = 0; round < 6; round++) {
      const set = await executeCall(
        tool,
        { sql: 'SET standard_conforming_strings = off' },
        { ...context, readOnly: false },
      );
      expect(set.type).toBe('tool-success');
      const read = await executeCall(
        tool,
        { sql: "SELECT 'a\\b' AS v, current_setting('standard_conforming_strings') AS scs" },
        { ...context, readOnly: true },
      );
      if (read.type !== 'tool-success') throw new Error(read.message);
      expect(read.data.statements[0]!.rows[0]).toEqual(['a\\b', 'on']);
    }
  });

  it.each([
    [
      "SELECT set_config('search_path', 'pg_catalog', false)",
      "SELECT current_setting('search_path') AS v",
      '"$user", public',
    ],
    ["SET TIME ZONE 'Pacific/Kiritimati'", "SELECT current_setting('TimeZone') AS v", undefined],
    ['CREATE TEMP TABLE orders (id int, status text)', 'SELECT count(*)::int AS v FROM orders', 10],
    ['PREPARE p AS SELECT 1', 'SELECT count(*)::int AS v FROM pg_prepared_statements', 0],
  ])('%s does not reach a later read', async (change, probe, expected) => {
    const tool = createExecuteSqlTool({ connection });
    const context = { cwd: '.', signal: new AbortController().signal };
    const before = await executeCall(tool, { sql: probe }, { ...context, readOnly: true });
    for (let round = 0; round < 5; round++) {
      await executeCall(tool, { sql: change }, { ...context, readOnly: false });
      const after = await executeCall(tool, { sql: probe }, { ...context, readOnly: true });
      if (after.type !== 'tool-success' || before.type !== 'tool-success') throw new Error('probe failed');
      expect(after.data.statements[0]!.rows[0]![0]).toEqual(expected ?? before.data.statements[0]!.rows[0]![0]);
    }
  });
});

describe('honest to the model', () => {
  it('tells the true number of rows when it shows a prefix, and keeps only the prefix', async () => {
    const tool = createExecuteSqlTool({ connection, limits: { maxRows: 5, modelRows: 3 } });
    const result = await executeCall(
      tool,
      { sql: 'SELECT g FROM generate_series(1, 100000) g' },
      { cwd: '.', signal: new AbortController().signal, readOnly: true },
    );
    if (result.type !== 'tool-success') throw new Error(result.message);
    expect(result.data.statements[0]!.rows).toHaveLength(5);
    expect(result.data.statements[0]!.totalRows).toBe(100_000);
    expect(result.forModel).toContain('(showing 3 of 100,000 rows)');
  });
});
