import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createExecuteSqlTool,
  assessAndRun,
  assessSql,
  isSqlFailure,
  openSqlConnection,
  type SqlConnection,
} from '../src/index.js';
import { runSqliteWrite } from '../src/sqlite-writer.js';
import { createTempSqlite, type TempSqlite, describeCall } from './helpers.js';

// Confirmed SQLite statements run in a child process the deadline can kill (issue 19: they ran on
// riskgate's own thread, so an endless confirmed UPDATE blocked the event loop for good — no
// timeout, no Esc, no SIGTERM — and held the write lock against every other program).

const ENDLESS =
  'UPDATE orders SET total_cents = (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT max(i) FROM c) WHERE id = 1';

const files: TempSqlite[] = [];
const connections: SqlConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});
afterAll(() => {
  for (const file of files) file.cleanup();
});

async function open(): Promise<{ file: TempSqlite; connection: SqlConnection }> {
  const file = createTempSqlite();
  files.push(file);
  const connection = await openSqlConnection(file.path);
  if (isSqlFailure(connection)) throw new Error(connection.message);
  connections.push(connection);
  return { file, connection };
}

/** Processes whose environment names this database as their writer's. */
function writersOf(path: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (environment.includes('RISKGATE_SQLITE_WRITER') && environment.includes(path)) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

const totalOf = (path: string, id: number) => {
  const database = new Database(path, { readonly: true });
  try {
    return (database.prepare('SELECT total_cents FROM orders WHERE id = ?').get(id) as { total_cents: number })
      .total_cents;
  } finally {
    database.close();
  }
};

describe('confirmed SQLite statements', { timeout: 30_000 }, () => {
  it('an endless confirmed UPDATE is stopped at its timeout, changes nothing, and frees the database', async () => {
    const { file, connection } = await open();
    // The event loop stays free while it runs: a timer set now fires long before the statement ends.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    const result = await assessAndRun(connection, ENDLESS, {
      readOnly: false,
      signal: new AbortController().signal,
      timeoutMs: 1_000,
      maxRows: 10,
    });
    clearInterval(ticker);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(ticks).toBeGreaterThan(5);
    expect(result).toMatchObject({ code: 'sql-timeout' });
    expect(isSqlFailure(result) && result.message).toMatch(
      /stopped; it ran in one transaction that never committed, so nothing was changed/,
    );
    expect(totalOf(file.path, 1)).toBe(1200);
    // No process keeps spinning on it, and another program can write at once.
    const deadline = Date.now() + 5_000;
    while (writersOf(file.path).length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writersOf(file.path)).toEqual([]);
    const other = new Database(file.path);
    other.pragma('busy_timeout = 0');
    expect(other.prepare('UPDATE orders SET status = ? WHERE id = 2').run('shipped').changes).toBe(1);
    other.close();
  });

  it('a cancel stops a confirmed UPDATE at once, and nothing was changed', async () => {
    const { file, connection } = await open();
    const controller = new AbortController();
    const { plan } = await connection.assess(ENDLESS);
    const running = connection.run(plan, {
      readOnly: false,
      signal: controller.signal,
      timeoutMs: 60_000,
      maxRows: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const cancelled = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - cancelled).toBeLessThan(5_000);
    expect(result).toMatchObject({ code: 'sql-cancelled' });
    expect(isSqlFailure(result) && result.message).toContain('nothing was changed');
    expect(totalOf(file.path, 1)).toBe(1200);
  });

  it('a script with its own COMMIT, stopped after it, is "outcome unknown", and what it committed stays', async () => {
    const { file, connection } = await open();
    const result = await assessAndRun(
      connection,
      `BEGIN; UPDATE orders SET total_cents = 7 WHERE id = 2; COMMIT; ${ENDLESS}`,
      {
        readOnly: false,
        signal: new AbortController().signal,
        timeoutMs: 1_000,
        maxRows: 10,
      },
    );
    expect(result).toMatchObject({ code: 'sql-outcome-unknown' });
    expect(isSqlFailure(result) && result.message).toMatch(
      /statement 4 of 4 was running \(3 had finished\).*Check the data before retrying/,
    );
    expect(totalOf(file.path, 2)).toBe(7);
    expect(totalOf(file.path, 1)).toBe(1200);
  });

  it('confirmed writes still run, report their rows, and roll back a failed script whole', async () => {
    const { file, connection } = await open();
    const options = { readOnly: false, signal: new AbortController().signal, timeoutMs: 5_000, maxRows: 10 };
    const done = await assessAndRun(
      connection,
      "UPDATE orders SET status = 'done' WHERE status = 'paid' RETURNING id",
      options,
    );
    expect(isSqlFailure(done)).toBe(false);
    expect(!isSqlFailure(done) && done.statements[0]).toMatchObject({ rows: [[1], [3], [5]], affectedRows: 3 });
    const failed = await assessAndRun(
      connection,
      "DELETE FROM orders WHERE id = 4; INSERT INTO orders (id, customer_id, status, total_cents) VALUES (1, 1, 'x', 1)",
      options,
    );
    expect(failed).toMatchObject({ code: 'sql-constraint-violation', statementIndex: 2 });
    expect(isSqlFailure(failed) && failed.message).toContain('nothing was changed');
    expect(file.count('orders')).toBe(5);
  });

  it("the panel's preview of an endless UPDATE is stopped at its limit and skipped, and the preview of a plain one still counts", async () => {
    const { file, connection } = await open();
    const tool = createExecuteSqlTool({ connection });
    const started = Date.now();
    const endless = await describeCall(tool, { sql: ENDLESS }, { cwd: process.cwd(), dialect: 'sqlite' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(endless.details.join('\n')).toMatch(
      /preview skipped: the rolled-back run took longer than 2000 ms and was stopped; nothing was changed/,
    );
    expect(totalOf(file.path, 1)).toBe(1200);
    const plain = await describeCall(
      tool,
      { sql: "DELETE FROM orders WHERE status = 'paid'" },
      { cwd: process.cwd(), dialect: 'sqlite' },
    );
    expect(plain.details.join('\n')).toContain('would delete 3 rows of orders');
    expect(file.count('orders')).toBe(5);
  });

  it.skipIf(process.platform !== 'linux')(
    'the writer of an endless UPDATE dies with riskgate, even when riskgate is killed with SIGKILL, and nothing is committed',
    async () => {
      const { file } = await open();
      const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
      const child = spawn(
        process.execPath,
        [
          '--import',
          loader,
          '--conditions=@riskgate/source',
          fileURLToPath(new URL('./fixtures/endless-write.ts', import.meta.url)),
          file.path,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise((resolve) => child.stdout.once('data', resolve));
      expect(writersOf(file.path).length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const deadline = Date.now() + 5_000;
      while (writersOf(file.path).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(writersOf(file.path)).toEqual([]);
      expect(totalOf(file.path, 1)).toBe(1200);
    },
  );

  it('a COMMIT that has begun when the deadline comes is let finish: the write is reported done, never "stopped"', async () => {
    const { file, connection } = await open();
    // Another program reads in a transaction: the COMMIT waits for it to end (rollback-journal mode).
    const other = new Database(file.path);
    other.exec('BEGIN');
    other.prepare('SELECT count(*) FROM orders').get();
    setTimeout(() => other.exec('COMMIT'), 1_500);
    const result = await assessAndRun(connection, 'UPDATE orders SET total_cents = 5 WHERE id = 3', {
      readOnly: false,
      signal: new AbortController().signal,
      timeoutMs: 500,
      maxRows: 10,
    });
    other.close();
    expect(result).toMatchObject({ statements: [{ affectedRows: 1 }] });
    expect(totalOf(file.path, 3)).toBe(5);
  });

  it('a COMMIT still blocked after its grace is "outcome unknown", never "nothing was changed"', async () => {
    const { file } = await open();
    const other = new Database(file.path);
    other.exec('BEGIN');
    other.prepare('SELECT count(*) FROM orders').get();
    try {
      const { statements } = (await assessSql('UPDATE orders SET total_cents = 6 WHERE id = 3', { dialect: 'sqlite' }))
        .plan;
      const outcome = await runSqliteWrite(file.path, statements, {
        maxRows: 10,
        timeoutMs: 300,
        signal: new AbortController().signal,
        commitGraceMs: 300,
      });
      expect(outcome).toMatchObject({ kind: 'stopped', why: 'timeout', changed: 'unknown' });
      expect(outcome.kind === 'stopped' && outcome.detail).toMatch(
        /stopped during its COMMIT, so it may have committed/,
      );
    } finally {
      other.exec('COMMIT');
      other.close();
    }
  });
});
