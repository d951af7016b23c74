import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessAndRun,
  createDescribeSchemaTool,
  createExecuteSqlTool,
  isSqlFailure,
  openSqlConnection,
  type SchemaDescription,
  type SqlConnection,
  type SqlRunResult,
} from '../src/index.js';
import { callTool, createTempPostgres, createTempSqlite, describeCall, executeCall } from './helpers.js';

interface Engine {
  readonly connection: SqlConnection;
  count(table: string): Promise<number>;
  cleanup(): Promise<void>;
}

const engines: Record<string, () => Promise<Engine>> = {
  sqlite: async () => {
    const file = createTempSqlite();
    const connection = await openSqlConnection(file.path);
    if (isSqlFailure(connection)) throw new Error(connection.message);
    return {
      connection,
      count: async (table) => file.count(table),
      cleanup: async () => {
        await connection.close();
        file.cleanup();
      },
    };
  },
  postgres: async () => {
    const database = await createTempPostgres();
    const connection = await openSqlConnection(database.url);
    if (isSqlFailure(connection)) throw new Error(connection.message);
    return {
      connection,
      count: database.count,
      cleanup: async () => {
        await connection.close();
        await database.cleanup();
      },
    };
  },
};

function rows(result: unknown): readonly (readonly unknown[])[] {
  return (result as { data: SqlRunResult }).data.statements[0]!.rows;
}

describe.each(Object.keys(engines))('execute_sql on %s', (engineName) => {
  let engine: Engine;
  let tool: ReturnType<typeof createExecuteSqlTool>;
  beforeAll(async () => {
    engine = await engines[engineName]!();
    tool = createExecuteSqlTool({ connection: engine.connection });
  });
  afterAll(async () => {
    await engine?.cleanup();
  });

  describe('spec 001 scenarios', () => {
    it('Low-risk SQL executes automatically: a SELECT runs unasked and returns rows', async () => {
      const call = await callTool(tool, { sql: "SELECT id FROM orders WHERE status = 'paid' ORDER BY id" });
      expect(call.asked).toBe(false);
      expect(call.decision.source).toBe('whitelist');
      expect(call.result?.type).toBe('tool-success');
      expect(rows(call.result).map((row) => Number(row[0]))).toEqual([1, 3, 5]);
      expect((call.result as { forModel: string }).forModel).toContain('(3 rows)');
    });

    it('Low-risk SQL executes automatically: risk_level "low" runs unasked', async () => {
      const call = await callTool(tool, { sql: 'SELECT count(*) FROM customers', risk_level: 'low' });
      expect(call.asked).toBe(false);
      expect(call.decision.source).toBe('llm');
    });

    it('High-risk SQL requires confirmation: a DELETE asks, and "no" leaves the data unchanged', async () => {
      const before = await engine.count('orders');
      const call = await callTool(tool, { sql: "DELETE FROM orders WHERE status = 'cancelled'" }, 'no');
      expect(call.asked).toBe(true);
      expect(call.decision.action).toBe('confirm');
      expect(call.description).toMatchObject({ kind: 'sql', sql: "DELETE FROM orders WHERE status = 'cancelled'" });
      expect(call.ran).toBe(false);
      expect(await engine.count('orders')).toBe(before);
    });

    it('High-risk SQL requires confirmation: risk_level "medium" asks even for a SELECT', async () => {
      const call = await callTool(tool, { sql: 'SELECT * FROM orders', risk_level: 'medium' }, 'no');
      expect(call.asked).toBe(true);
      expect(call.decision.source).toBe('llm');
    });

    it('Code whitelist fallback: no risk_level and not on the whitelist asks (conservative default)', async () => {
      const call = await callTool(tool, { sql: 'CREATE TABLE scratch (x integer)' }, 'no');
      expect(call.asked).toBe(true);
      expect(call.decision.source).toBe('default');
    });

    it('Receive SQL translation: a high-risk statement is displayed with a preview before it runs', async () => {
      const call = await callTool(tool, { sql: "UPDATE orders SET status = 'archived' WHERE status = 'paid'" }, 'no');
      expect(call.description).toMatchObject({ kind: 'sql' });
      const details = (call.description as { details: readonly string[] }).details;
      expect(details).toContain('would change 3 rows of orders');
      expect(await engine.count("orders WHERE status = 'archived'")).toBe(0);
    });

    it('Execute confirmed query: "yes" runs it against the database and reports the result', async () => {
      const call = await callTool(tool, { sql: "INSERT INTO customers (id, name) VALUES (10, 'Dana')" }, 'yes');
      expect(call.ran).toBe(true);
      expect(call.result?.type).toBe('tool-success');
      expect((call.result as { data: SqlRunResult }).data.statements[0]!.affectedRows).toBe(1);
      expect(await engine.count('customers WHERE id = 10')).toBe(1);
    });
  });

  describe('previews of writes', () => {
    it.each([
      ['DELETE FROM orders', 'would delete 5 rows of orders'],
      ['UPDATE orders SET total_cents = 0 WHERE customer_id = 1', 'would change 2 rows of orders'],
      ["INSERT INTO customers (id, name) VALUES (20, 'a'), (21, 'b')", 'would add 2 rows to customers'],
      ['DELETE FROM orders WHERE id = 1', 'would delete 1 row of orders'],
      ["DELETE FROM orders WHERE status = 'paid' RETURNING id", 'would delete 3 rows of orders'],
    ])('%s → %s, and rolls back', async (sql, line) => {
      const before = await engine.count('orders');
      const description = await describeCall(tool, { sql }, { cwd: '.' });
      expect((description as { details: readonly string[] }).details).toContain(line);
      expect(await engine.count('orders')).toBe(before);
      expect(await engine.count('customers WHERE id >= 20')).toBe(0);
    });

    it('counts each statement of a script after the ones before it', async () => {
      const description = await describeCall(
        tool,
        { sql: 'DELETE FROM orders WHERE id = 1; DELETE FROM orders' },
        { cwd: '.' },
      );
      expect((description as { details: readonly string[] }).details).toEqual(
        expect.arrayContaining(['would delete 1 row of orders', 'would delete 4 rows of orders']),
      );
      expect(await engine.count('orders')).toBe(5);
    });

    it('reports why a preview is unavailable instead of failing', async () => {
      const description = await describeCall(tool, { sql: 'DELETE FROM no_such_table' }, { cwd: '.' });
      expect((description as { details: readonly string[] }).details.join('\n')).toMatch(
        /preview unavailable: .*no_such_table/,
      );
    });
  });

  describe('defence in depth: what runs because it is whitelisted cannot write', () => {
    it.each([
      ['DELETE FROM orders'],
      ["UPDATE orders SET status = 'x'"],
      ['DROP TABLE orders'],
      ["INSERT INTO customers (id, name) VALUES (99, 'x')"],
    ])('a write forced down the read-only path fails and changes nothing: %s', async (sql) => {
      const before = await engine.count('orders');
      const result = await executeCall(
        tool,
        { sql },
        { cwd: '.', signal: new AbortController().signal, readOnly: true },
      );
      expect(result.type).toBe('tool-error');
      if (result.type === 'tool-error') expect(result.code).toBe('sql-read-only');
      expect(await engine.count('orders')).toBe(before);
      expect(await engine.count('customers WHERE id = 99')).toBe(0);
    });
  });

  describe('results and errors', () => {
    it('keeps only the first rows and flags that there are more', async () => {
      const limited = createExecuteSqlTool({ connection: engine.connection, limits: { maxRows: 2, modelRows: 1 } });
      const result = await executeCall(
        limited,
        { sql: 'SELECT id FROM orders ORDER BY id' },
        { cwd: '.', signal: new AbortController().signal, readOnly: true },
      );
      expect(result.type).toBe('tool-success');
      if (result.type !== 'tool-success') return;
      expect(result.data.statements[0]!.rows).toHaveLength(2);
      expect(result.data.statements[0]!.truncated).toBe(true);
      expect(result.forModel).toContain('(showing 1 of 5 rows)');
    });

    it('types its columns', async () => {
      const result = await executeCall(
        tool,
        { sql: 'SELECT id, name FROM customers ORDER BY id' },
        { cwd: '.', signal: new AbortController().signal, readOnly: true },
      );
      if (result.type !== 'tool-success') throw new Error(result.message);
      expect(result.data.statements[0]!.columns.map((column) => column.name)).toEqual(['id', 'name']);
      expect(result.data.statements[0]!.columns[0]!.type).toMatch(/int/i);
      expect(result.data.elapsedMs).toBeGreaterThanOrEqual(0);
    });

    it.each([
      ['SELECT * FROM missing_table', 'sql-missing-table'],
      ['SELEC 1', 'sql-syntax-error'],
      ["INSERT INTO orders (id, customer_id, status, total_cents) VALUES (1, 1, 'dup', 1)", 'sql-constraint-violation'],
    ])('returns %s as a %s value, not a throw', async (sql, code) => {
      const result = await executeCall(
        tool,
        { sql },
        { cwd: '.', signal: new AbortController().signal, readOnly: false },
      );
      expect(result).toMatchObject({ type: 'tool-error', code });
    });

    it('rolls back a confirmed script whose later statement fails, and says so', async () => {
      const sql = "INSERT INTO customers (id, name) VALUES (50, 'x'); INSERT INTO missing_table VALUES (1)";
      const result = await executeCall(
        tool,
        { sql },
        { cwd: '.', signal: new AbortController().signal, readOnly: false },
      );
      expect(result.type).toBe('tool-error');
      if (result.type === 'tool-error') expect(result.message).toMatch(/statement 2.*nothing was changed/);
      expect(await engine.count('customers WHERE id = 50')).toBe(0);
    });

    it("runs nothing without its assessment's plan, and says so", async () => {
      const before = await engine.count('customers');
      const execute = tool.execute as (args: unknown, context: unknown, plan?: unknown) => Promise<unknown>;
      const result = await execute(
        { sql: 'DELETE FROM customers' },
        { cwd: '.', signal: new AbortController().signal, readOnly: false },
      );
      expect(result).toMatchObject({ type: 'tool-error', code: 'sql-not-assessed' });
      expect(await engine.count('customers')).toBe(before);
    });
  });

  describe('describe_schema', () => {
    it('describes tables, columns, keys, indexes and row counts, and is whitelisted', async () => {
      const describeTool = createDescribeSchemaTool({ connection: engine.connection });
      const call = await callTool(describeTool, { table: 'orders' });
      expect(call.asked).toBe(false);
      if (call.result?.type !== 'tool-success') throw new Error('describe failed');
      const schema = call.result.data as SchemaDescription;
      const orders = schema.tables[0]!;
      expect(orders.name).toBe('orders');
      expect(orders.columns.map((column) => column.name)).toEqual(['id', 'customer_id', 'status', 'total_cents']);
      expect(orders.columns[0]!.primaryKey).toBe(true);
      expect(orders.foreignKeys[0]!.references).toMatch(/customers\s*\(id\)/);
      expect(orders.indexes.map((index) => index.name)).toContain('orders_status');
      expect(call.result.forModel).toMatch(/table orders/);
    });

    it('names the tables there are when asked for one that is not', async () => {
      const describeTool = createDescribeSchemaTool({ connection: engine.connection });
      const result = await describeTool.execute(
        { table: 'nope' },
        { cwd: '.', signal: new AbortController().signal, readOnly: true },
      );
      expect(result).toMatchObject({ type: 'tool-error', code: 'sql-missing-table' });
    });
  });
});

describe('connections', () => {
  it('refuses a SQLite path that does not exist instead of creating an empty database', async () => {
    const result = await openSqlConnection('/tmp/riskgate-no-such-dir/nothing.sqlite');
    expect(isSqlFailure(result) && result.code).toBe('sql-connection-failed');
  });

  it('reports a refused PostgreSQL connection as a value, without the password', async () => {
    const result = await openSqlConnection('postgres://user:secret@127.0.0.1:1/db');
    expect(isSqlFailure(result)).toBe(true);
    if (isSqlFailure(result)) {
      expect(result.code).toBe('sql-connection-failed');
      expect(result.message).not.toContain('secret');
      expect(result.message).toContain('cannot connect to postgres://user@127.0.0.1:1/db');
    }
  });

  it('runs on :memory: with query_only as the read-only guard', async () => {
    const connection = await openSqlConnection(':memory:');
    if (isSqlFailure(connection)) throw new Error(connection.message);
    const signal = new AbortController().signal;
    await assessAndRun(connection, 'CREATE TABLE t (x integer); INSERT INTO t VALUES (1)', {
      readOnly: false,
      signal,
      timeoutMs: 1000,
      maxRows: 10,
    });
    const refused = await assessAndRun(connection, 'DELETE FROM t', {
      readOnly: true,
      signal,
      timeoutMs: 1000,
      maxRows: 10,
    });
    expect(isSqlFailure(refused) && refused.code).toBe('sql-read-only');
    const read = await assessAndRun(connection, 'SELECT count(*) FROM t', {
      readOnly: true,
      signal,
      timeoutMs: 1000,
      maxRows: 10,
    });
    expect(isSqlFailure(read) ? read.message : read.statements[0]!.rows[0]).toEqual([1]);
    await connection.close();
  });
});

describe('PostgreSQL timeouts and cancellation stop the query on the server', () => {
  let database: Awaited<ReturnType<typeof createTempPostgres>>;
  let connection: SqlConnection;
  beforeAll(async () => {
    database = await createTempPostgres();
    const opened = await openSqlConnection(database.url);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
  });
  afterAll(async () => {
    await connection?.close();
    await database?.cleanup();
  });

  /** Queries running in the test database, other than this probe (through a cursor they show as FETCH). */
  async function activeSleeps(): Promise<number> {
    const result = await database.query(
      // The sleeps only: the pool's own `SELECT pg_cancel_backend(…)` may still be active on another connection.
      "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_sleep(30)%'",
    );
    return Number(result.rows[0].n);
  }

  it('cancels a running query through the AbortSignal', async () => {
    const controller = new AbortController();
    // Assessed first, so the wait below times the run alone.
    const { plan } = await connection.assess('SELECT pg_sleep(30)');
    const running = connection.run(plan, {
      readOnly: true,
      signal: controller.signal,
      timeoutMs: 60_000,
      maxRows: 10,
    });
    for (let attempt = 0; attempt < 50 && (await activeSleeps()) === 0; attempt++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await activeSleeps()).toBe(1);
    const started = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isSqlFailure(result) && result.code).toBe('sql-cancelled');
    expect(await activeSleeps()).toBe(0);
  });

  it('stops a statement at the statement timeout', async () => {
    const result = await assessAndRun(connection, 'SELECT pg_sleep(30)', {
      readOnly: true,
      signal: new AbortController().signal,
      timeoutMs: 200,
      maxRows: 10,
    });
    expect(isSqlFailure(result) && result.code).toBe('sql-timeout');
  });
});
