import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessAndRun, isSqlFailure, openSqlConnection, type SqlConnection } from '../src/index.js';
import { createTempSqlite, type TempSqlite } from './helpers.js';

// The model is told the true number of rows. The reader keeps 500 and counts the rest while the
// statement runs (a GROUP BY is not run a second time to count it); a large plain result is
// counted by a count-only run once counting in JavaScript has cost as much (issue 20).
describe('SQLite reads tell the true number of rows', { timeout: 60_000 }, () => {
  let shop: TempSqlite;
  let connection: SqlConnection;
  beforeAll(async () => {
    shop = createTempSqlite('CREATE TABLE big (id INTEGER PRIMARY KEY, grp INT, payload TEXT);');
    const database = new Database(shop.path);
    database.exec(
      'WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 300000) INSERT INTO big SELECT i, i % 3000, hex(randomblob(8)) FROM c',
    );
    database.close();
    const opened = await openSqlConnection(shop.path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    connection = opened;
  });
  afterAll(async () => {
    await connection.close();
    shop.cleanup();
  });

  it.each([
    ['a GROUP BY of 3,000 groups', 'SELECT grp, count(*), max(payload) FROM big GROUP BY grp', 3000],
    ['a plain scan of 300,000 rows', 'SELECT * FROM big', 300_000],
    ['a filtered scan', 'SELECT id FROM big WHERE grp < 10', 1000],
    ['a result of exactly the rows kept', 'SELECT id FROM big WHERE id <= 500', 500],
  ])('%s', async (_name, sql, total) => {
    const result = await assessAndRun(connection, sql, {
      readOnly: true,
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      maxRows: 500,
    });
    if (isSqlFailure(result)) throw new Error(result.message);
    expect(result.statements[0]).toMatchObject({ totalRows: total, truncated: total > 500 });
    expect(result.statements[0]!.rows).toHaveLength(Math.min(total, 500));
  });
});
