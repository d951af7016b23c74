import { startFaultProxy, type FaultProxy } from '@riskgate/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assessAndRun, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { createTempMysql, type TempMysql } from './helpers.js';

// Real faults between riskgate and a real MariaDB: a loopback proxy the test drops or stalls,
// and the server's own KILL CONNECTION. riskgate must not crash or hang, and must never call a
// write that may have committed "failed" or "stopped".
let database: TempMysql;
let proxy: FaultProxy;
let connection: SqlConnection;

beforeAll(async () => {
  database = await createTempMysql();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  const target = new URL(database.url);
  proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 3306) });
  target.port = String(proxy.port);
  const opened = await openSqlConnection(target.toString());
  if (isSqlFailure(opened)) throw new Error(opened.message);
  connection = opened;
});
afterEach(async () => {
  proxy.resume();
  await connection.close().catch(() => {});
  await proxy.close();
});

const run = (sql: string, options: { readOnly?: boolean; timeoutMs?: number; signal?: AbortSignal } = {}) =>
  assessAndRun(connection, sql, {
    readOnly: options.readOnly ?? false,
    timeoutMs: options.timeoutMs ?? 3_000,
    maxRows: 50,
    signal: options.signal ?? new AbortController().signal,
  });
/**
 * The call assessed first (its catalog reads are not the run's), then the run started: for tests
 * that time a fault against the run itself. The run's promise is wrapped so it is not awaited here.
 */
const start = async (sql: string, options: { readOnly?: boolean; timeoutMs?: number; signal?: AbortSignal } = {}) => {
  const { plan } = await connection.assess(sql);
  return {
    result: connection.run(plan, {
      readOnly: options.readOnly ?? false,
      timeoutMs: options.timeoutMs ?? 3_000,
      maxRows: 50,
      signal: options.signal ?? new AbortController().signal,
    }),
  };
};
const total = async () =>
  Number(((await database.query('SELECT sum(total_cents) AS n FROM orders')) as { n: number }[])[0]!.n);

// Only this file's database: other test files (and other packages' tests) run SLEEP on the same
// server at the same time, and killing theirs made both fail under CI's parallel load.
async function killWhenRunning(text: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = (await database.query(
      `SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%${text}%' AND DB = '${database.name}' AND ID <> CONNECTION_ID()`,
    )) as { ID: number }[];
    if (found.length > 0) {
      await database.query(`KILL CONNECTION ${found[0]!.ID}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never saw ${text} running`);
}

describe('MariaDB connection faults', { timeout: 20_000 }, () => {
  it.each([
    ['a whitelisted read', true],
    ['a confirmed read', false],
  ])('KILL CONNECTION during %s ends the call at once', async (_name, readOnly) => {
    const started = Date.now();
    const [result] = await Promise.all([
      run('SELECT SLEEP(5)', { readOnly, timeoutMs: 10_000 }),
      killWhenRunning('SLEEP(5)'),
    ]);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(isSqlFailure(result)).toBe(true);
    expect(isSqlFailure(result) && result.code).toMatch(readOnly ? /^sql-connection-failed$/ : /^sql-outcome-unknown$/);
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
  });

  it('a confirmed UPDATE whose connection drops while it runs is "outcome unknown", at once', async () => {
    proxy.whenSent('UPDATE orders', 'drop');
    const started = Date.now();
    // SLEEP per row keeps the statement running when the connection drops.
    const result = await run('UPDATE orders SET total_cents = total_cents + 1 WHERE SLEEP(0.2) = 0');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({
      code: 'sql-outcome-unknown',
      message: expect.stringMatching(/may have been applied.*Check the data before retrying/),
    });
  });

  it('a confirmed UPDATE whose reply stalls is "outcome unknown", never "stopped"', async () => {
    const before = await total();
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const started = Date.now();
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', { timeoutMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result).toMatchObject({ code: 'sql-outcome-unknown' });
    expect(isSqlFailure(result) && result.message).not.toMatch(/stopped on the server/);
    expect(await total()).toBe(before + 5);
  });

  it('an abort during a stalled UPDATE ends within the grace', async () => {
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result).toMatchObject({ code: 'sql-outcome-unknown' });
  });

  it('a dropped connection before anything was sent changes nothing and says so', async () => {
    proxy.whenSent('max_statement_time', 'stall-replies');
    const before = await total();
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', { timeoutMs: 500 });
    expect(result).toMatchObject({
      code: 'sql-connection-failed',
      message: expect.stringMatching(/before the statement was sent; nothing was changed/),
    });
    expect(await total()).toBe(before);
  });

  it('a preview whose reply stalls ends within its bound, and changed nothing', async () => {
    const sql = 'UPDATE orders SET total_cents = total_cents + 1';
    const before = await total();
    const assessment = await connection.assess(sql);
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const started = Date.now();
    const preview = await connection.preview(assessment.plan, { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(preview).toMatchObject({ code: 'sql-timeout', message: expect.stringMatching(/changed nothing/) });
    expect(await total()).toBe(before);
  });

  it('assessing on a stalled connection gives up on the server and still judges', { timeout: 30_000 }, async () => {
    await run('SELECT 1', { readOnly: true });
    proxy.stall('both');
    const started = Date.now();
    const assessment = await connection.assess("DELETE FROM orders WHERE status = 'paid'");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(assessment.statements).toHaveLength(1);
    expect(assessment.effects.some((effect) => effect.kind === 'write-db')).toBe(true);
  });
});

describe('closing a MariaDB connection', { timeout: 30_000 }, () => {
  it('is bounded in time when the server stalls: a dead network never hangs exit', async () => {
    // A pooled connection that ran a read, then the network goes dead (nothing arrives, nothing closes).
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
    expect(await run('SELECT 2 AS two')).toMatchObject({ statements: [{ rows: [[2]] }] });
    proxy.stall();
    const started = Date.now();
    await connection.close();
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('is bounded in time while a call still runs on a stalled connection', async () => {
    const { result: running } = await start('SELECT SLEEP(30)', { readOnly: true, timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.stall();
    const started = Date.now();
    await connection.close();
    expect(Date.now() - started).toBeLessThan(12_000);
    // The call ends too, as a failure of the connection, not a hang.
    expect(await running).toMatchObject({ type: 'sql-error' });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('MariaDB describe_schema on a stalled connection', { timeout: 90_000 }, () => {
  it('ends within its bound with a failure value, and the next call works', async () => {
    proxy.whenSent('information_schema.COLUMNS', 'stall-replies');
    const started = Date.now();
    const described = await connection.describeSchema();

    expect(Date.now() - started).toBeLessThan(25_000);
    expect(isSqlFailure(described)).toBe(true);
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
  });
});

describe('MariaDB ending an idle pooled connection', { timeout: 30_000 }, () => {
  it('is no crash: the error event is caught and the next call gets a fresh connection', async () => {
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
    const idle = (await database.query(
      "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND = 'Sleep' AND ID <> CONNECTION_ID() AND DB = DATABASE()",
    )) as { ID: number }[];
    expect(idle.length).toBeGreaterThan(0);
    for (const { ID } of idle) await database.query(`KILL CONNECTION ${ID}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await run('SELECT 2 AS two', { readOnly: true })).toMatchObject({ statements: [{ rows: [[2]] }] });
  });
});
