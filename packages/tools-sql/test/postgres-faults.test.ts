import { startFaultProxy, type FaultProxy } from '@riskgate/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assessAndRun, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { createTempPostgres, type TempPostgres } from './helpers.js';

// Real faults between riskgate and a real PostgreSQL: a loopback proxy the test drops or stalls,
// and the server's own pg_terminate_backend. Whatever happens, riskgate must not crash or hang,
// and what it reports must match what the database holds afterwards.
let database: TempPostgres;
let proxy: FaultProxy;
let connection: SqlConnection;

beforeAll(async () => {
  database = await createTempPostgres();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  const target = new URL(database.url);
  proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
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
const total = async () => Number((await database.query('SELECT sum(total_cents) AS n FROM orders')).rows[0].n);

// Only this file's database: other test files run pg_sleep on the same server at the same time.
async function terminateWhenRunning(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'",
        [`%${text}%`],
      );
      if (found.rows.length > 0) {
        await admin.query('SELECT pg_terminate_backend($1)', [found.rows[0].pid]);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`never saw ${text} running`);
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL connection faults', { timeout: 20_000 }, () => {
  it.each([
    ['a whitelisted read', true],
    ['a confirmed read', false],
  ])('pg_terminate_backend during %s is a connection failure, not a crash', async (_name, readOnly) => {
    const [result] = await Promise.all([
      run('SELECT pg_sleep(5)', { readOnly, timeoutMs: 10_000 }),
      terminateWhenRunning('pg_sleep(5)'),
    ]);
    expect(result).toMatchObject({ type: 'sql-error', code: 'sql-connection-failed' });
    expect(isSqlFailure(result) && result.message).toMatch(/nothing was changed|rolled back/);
    // The connection works again afterwards.
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
  });

  it('a dropped connection during a read fails cleanly', async () => {
    const { result: running } = await start('SELECT pg_sleep(5)', { readOnly: true, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.drop();
    const result = await running;
    expect(result).toMatchObject({ code: 'sql-connection-failed' });
    expect(isSqlFailure(result) && result.message).toMatch(/read-only, so nothing was changed/);
  });

  it('a confirmed UPDATE whose COMMIT reply never comes: the server confirms it committed, and it is said so', async () => {
    const before = await total();
    proxy.whenSent('COMMIT', 'stall-replies');
    const started = Date.now();
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', { timeoutMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(isSqlFailure(result)).toBe(false);
    expect(result).toMatchObject({ notice: expect.stringMatching(/committed, so the change was made/) });
    expect(await total()).toBe(before + 5);
  });

  it('a confirmed UPDATE whose own reply stalls: the backend is ended, the server confirms the rollback', async () => {
    const before = await total();
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', { timeoutMs: 1_000 });
    expect(result).toMatchObject({
      code: 'sql-connection-failed',
      message: expect.stringMatching(/rolled back: nothing was changed/),
    });
    expect(await total()).toBe(before);
  });

  it('an abort during a stalled UPDATE ends within the grace, with the truth', async () => {
    const before = await total();
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await run('UPDATE orders SET total_cents = total_cents + 1', {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({
      code: 'sql-connection-failed',
      message: expect.stringMatching(/rolled back: nothing was changed/),
    });
    expect(await total()).toBe(before);
  });

  it.each([
    1, 2, 3, 4, 5, 6,
  ])('a connection dropped at COMMIT (run %i) is reported as what the database holds', async () => {
    const before = await total();
    proxy.whenSent('COMMIT', 'drop');
    const result = await run('UPDATE orders SET total_cents = total_cents + 1');
    const after = await total();
    if (isSqlFailure(result)) {
      expect(result.code).not.toBe('sql-error');
      if (result.code === 'sql-connection-failed') expect(after).toBe(before);
      else expect(result.code).toBe('sql-outcome-unknown');
    } else {
      expect(after).toBe(before + 5);
    }
  });

  it('a script with its own transactions, stalled after it was sent, is "outcome unknown"', async () => {
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const result = await run('BEGIN; UPDATE orders SET total_cents = total_cents + 1; COMMIT', { timeoutMs: 500 });
    expect(result).toMatchObject({
      code: 'sql-outcome-unknown',
      message: expect.stringMatching(/Check the data before retrying/),
    });
  });
});

describe('PostgreSQL previews', { timeout: 20_000 }, () => {
  it('a preview whose reply stalls ends within its bound, and changed nothing', async () => {
    const sql = 'UPDATE orders SET total_cents = total_cents + 1';
    const before = await total();
    const assessment = await connection.assess(sql);
    proxy.whenSent('UPDATE orders', 'stall-replies');
    const started = Date.now();
    const preview = await connection.preview(assessment.plan, { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(preview).toMatchObject({
      code: 'sql-connection-failed',
      message: expect.stringMatching(/a preview changes nothing/),
    });
    expect(await total()).toBe(before);
  });
});

describe('PostgreSQL estimates (a preview that cannot run)', { timeout: 30_000 }, () => {
  const sql = 'UPDATE orders SET total_cents = total_cents + 1';
  it('a connection dropped during the EXPLAIN is a skipped preview, not a crash (no error event reaches the process)', async () => {
    const assessment = await connection.assess(sql);
    proxy.whenSent('EXPLAIN', 'drop');
    const estimate = await connection.estimate(assessment.plan, 'orders has a trigger');
    expect(estimate).toMatchObject({ reason: 'orders has a trigger' });
    // Nothing is left to crash the process a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
  });

  it('an EXPLAIN whose reply stalls ends within its bound, so the panel shows', async () => {
    const assessment = await connection.assess(sql);
    proxy.whenSent('EXPLAIN', 'stall-replies');
    const started = Date.now();
    const estimate = await connection.estimate(assessment.plan, 'orders has a trigger');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(estimate).toMatchObject({ reason: 'orders has a trigger' });
  });
});

describe('PostgreSQL assessment on a stalled connection', { timeout: 30_000 }, () => {
  it('gives up on the live catalog and judges with the shipped one', async () => {
    await run('SELECT 1', { readOnly: true });
    proxy.stall('both');
    const started = Date.now();
    const assessment = await connection.assess("DELETE FROM orders WHERE status = 'paid'");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(assessment.effects.some((effect) => effect.kind === 'write-db')).toBe(true);
  });
});

describe('PostgreSQL that cannot be asked', { timeout: 30_000 }, () => {
  it('a COMMIT whose reply stalls while no new connection gets through is "outcome unknown", never "failed"', async () => {
    proxy.whenSent('COMMIT', 'stall-replies');
    const { result: running } = await start('UPDATE orders SET total_cents = total_cents + 1', { timeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.stall('both');
    const result = await running;
    expect(result).toMatchObject({
      code: 'sql-outcome-unknown',
      message: expect.stringMatching(/it may have\. Check the data before retrying/),
    });
  });
});

describe('closing a PostgreSQL connection', { timeout: 30_000 }, () => {
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
    const { result: running } = await start('SELECT pg_sleep(30)', { readOnly: true, timeoutMs: 60_000 });
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

describe('PostgreSQL ending an idle pooled connection', { timeout: 30_000 }, () => {
  it('is no crash: the error event is caught and the next call gets a fresh connection', async () => {
    expect(await run('SELECT 1 AS one', { readOnly: true })).toMatchObject({ statements: [{ rows: [[1]] }] });
    const ended = await database.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'",
    );
    expect(ended.rows.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await run('SELECT 2 AS two', { readOnly: true })).toMatchObject({ statements: [{ rows: [[2]] }] });
  });
});
