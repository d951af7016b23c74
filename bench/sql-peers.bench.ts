// One measurement in a process of its own, for `pnpm bench` (never a timed unit test):
//   sql-peers.bench.ts <url|file> <read|confirmed|describe> <sql>
// Assesses the SQL and runs its plan through SqlConnection, as a tool call does (read: the
// whitelisted, read-only path; confirmed: as after "yes"), or describe_schema, and prints the
// run's wall time, the assessment's, rows, total and RSS growth.
import { assessAndRun, isSqlFailure, openSqlConnection } from '@riskgate/tools-sql';

const [target, mode, sql] = process.argv.slice(2);
if (target === undefined || mode === undefined)
  throw new Error('usage: sql-peers.bench.ts <url|file> <read|confirmed|describe> [sql]');
const rssBefore = process.resourceUsage().maxRSS;
const opened = performance.now();
const connection = await openSqlConnection(target);
if (isSqlFailure(connection)) throw new Error(connection.message);
if (mode === 'describe') {
  const schema = await connection.describeSchema();
  const ms = performance.now() - opened;
  if (isSqlFailure(schema)) throw new Error(schema.message);
  await connection.close();
  process.stdout.write(`${JSON.stringify({ ms, tables: schema.tables.length })}\n`);
} else {
  // Warm the connection (type cache, worker thread) on a trivial query first.
  await assessAndRun(connection, 'SELECT 1', {
    readOnly: true,
    signal: new AbortController().signal,
    timeoutMs: 60_000,
    maxRows: 1,
  });
  // The assessment (the gate's, once per call) and the run, timed apart: `ms` is the run.
  const assessing = performance.now();
  const { plan } = await connection.assess(sql ?? '');
  const started = performance.now();
  const result = await connection.run(plan, {
    readOnly: mode === 'read',
    signal: new AbortController().signal,
    timeoutMs: 600_000,
    maxRows: 500,
  });
  const ms = performance.now() - started;
  const assessMs = started - assessing;
  if (isSqlFailure(result)) throw new Error(result.message);
  const statement = result.statements[0]!;
  await connection.close();
  process.stdout.write(
    `${JSON.stringify({ ms, assessMs, rows: statement.rows.length, total: statement.totalRows ?? null, rssGrowthMb: (process.resourceUsage().maxRSS - rssBefore) / 1024 })}\n`,
  );
}
