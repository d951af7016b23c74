import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { isSqlFailure, openSqlConnection } from '../src/index.js';
import { createTempSqlite } from './helpers.js';

// A database file can hold a view whose first row never comes (an endless recursive CTE). Counting
// its rows for describe_schema — which runs unasked, and when a session opens — ran it on riskgate's
// own thread: riskgate hung for good, deaf to SIGTERM. A view's rows are not counted.
const file = createTempSqlite();
afterAll(() => file.cleanup());

it('describes a database with an endless view at once, without counting the view', { timeout: 30_000 }, async () => {
  const database = new Database(file.path);
  database.exec(
    'CREATE VIEW forever AS SELECT max(i) AS top FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c)',
  );
  database.close();
  const connection = await openSqlConnection(file.path);
  if (isSqlFailure(connection)) throw new Error(connection.message);
  try {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const described = await connection.describeSchema();
    clearInterval(ticker);
    expect(isSqlFailure(described)).toBe(false);
    if (isSqlFailure(described)) return;
    expect(described.tables.find((table) => table.name === 'forever')).toMatchObject({
      kind: 'view',
      rowEstimate: null,
    });
    expect(described.tables.find((table) => table.name === 'orders')).toMatchObject({ kind: 'table', rowEstimate: 5 });
  } finally {
    await connection.close();
  }
});
