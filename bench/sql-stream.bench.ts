// One measurement in a process of its own: open the database, SELECT * over the big table,
// keep the first 500 rows. Prints time to the rows and this process's peak RSS.
import { assessAndRun, isSqlFailure, openSqlConnection } from '@riskgate/tools-sql';

const target = process.argv[2];
if (target === undefined) throw new Error('usage: sql-stream.bench.ts <sqlite file | postgres url>');
const connection = await openSqlConnection(target);
if (isSqlFailure(connection)) throw new Error(connection.message);
// Warm the connection (and PostgreSQL's type cache) on a one-row query first.
await assessAndRun(connection, 'SELECT * FROM big LIMIT 1', {
  readOnly: true,
  signal: new AbortController().signal,
  timeoutMs: 60_000,
  maxRows: 1,
});
const rssBefore = process.resourceUsage().maxRSS;
const started = performance.now();
const result = await assessAndRun(connection, 'SELECT * FROM big', {
  readOnly: true,
  signal: new AbortController().signal,
  timeoutMs: 60_000,
  maxRows: 500,
});
const firstRowsMs = performance.now() - started;
if (isSqlFailure(result)) throw new Error(result.message);
const statement = result.statements[0]!;
await connection.close();
process.stdout.write(
  `${JSON.stringify({ firstRowsMs, rowsKept: statement.rows.length, truncated: statement.truncated, peakRssMb: process.resourceUsage().maxRSS / 1024, rssGrowthMb: (process.resourceUsage().maxRSS - rssBefore) / 1024 })}\n`,
);
