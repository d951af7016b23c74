import {
  assessAndRun,
  formatRunForModel,
  isSqlFailure,
  openSqlConnection,
  type SqlConnection,
} from '@riskgate/tools-sql';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempMysql, createTempPostgres, createTempSqlite } from '../../../packages/tools-sql/test/helpers.js';
import { layoutTable } from '../src/ui/table-layout.js';

/**
 * Real results from each engine's driver through the screen's table: numbers (as the driver
 * typed them: numbers, or int8/numeric/DECIMAL digits kept as text) are right-aligned, SQL NULL
 * is marked and reads NULL, the text 'NULL' reads 'NULL'.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const ENGINES: [string, () => Promise<string>, string][] = [
  [
    'SQLite',
    async () => {
      const database = createTempSqlite();
      cleanups.push(() => database.cleanup());
      return database.path;
    },
    "SELECT 7 AS n, 12.5 AS price, NULL AS missing, 'NULL' AS word UNION ALL SELECT 1204, 1234.25, 'x', 'y'",
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTempPostgres();
      cleanups.push(() => database.cleanup());
      return database.url;
    },
    "SELECT 7::int8 AS n, 12.5::numeric AS price, NULL::text AS missing, 'NULL' AS word UNION ALL SELECT 1204, 1234.25, 'x', 'y'",
  ],
  [
    'MariaDB',
    async () => {
      const database = await createTempMysql();
      cleanups.push(() => database.cleanup());
      return database.url;
    },
    "SELECT CAST(7 AS SIGNED) AS n, CAST(12.5 AS DECIMAL(8,2)) AS price, NULL AS missing, 'NULL' AS word UNION ALL SELECT 1204, 1234.25, 'x', 'y'",
  ],
];

describe('result tables from real drivers', () => {
  it.each(ENGINES)(
    '%s: numbers right-aligned, NULL and the text NULL told apart',
    async (_engine, create, sql) => {
      const opened = await openSqlConnection(await create());
      if (isSqlFailure(opened)) throw new Error(opened.message);
      const connection: SqlConnection = opened;
      cleanups.unshift(() => connection.close());
      const result = await assessAndRun(connection, sql, {
        readOnly: true,
        signal: AbortSignal.timeout(30_000),
        timeoutMs: 30_000,
        maxRows: 100,
      });
      if (isSqlFailure(result)) throw new Error(result.message);
      const statement = result.statements[0]!;
      const table = layoutTable(statement.columns, statement.rows, { width: 100, maxRows: 50, truncated: false });
      const cells = table.rows.map((row) => row.split(' │ '));
      // n: right-aligned whole numbers.
      expect(cells.map((row) => row[0])).toEqual(['   7', '1204']);
      // price: right-aligned, digits as the engine gave them (12.5 or 12.50).
      expect(cells[0]![1]).toMatch(/^ +12\.50?$/);
      expect(cells[1]![1]).toMatch(/^1234\.25$/);
      expect(cells[0]![1]!.length).toBe(cells[1]![1]!.length);
      // missing: SQL NULL, marked for dimming; word: the text 'NULL', quoted.
      expect(cells[0]![2]!.trim()).toBe('NULL');
      expect(table.styledRows[0]!.find((segment) => segment.null === true)?.text.trim()).toBe('NULL');
      expect(cells[0]![3]!.trim()).toBe("'NULL'");
      expect(table.styledRows[0]!.filter((segment) => segment.null === true)).toHaveLength(1);
      // What the model reads tells them apart the same way.
      expect(formatRunForModel(result, 100).split('\n')[1]).toMatch(/^7 \| 12\.50? \| NULL \| 'NULL'$/);
    },
    60_000,
  );
});
