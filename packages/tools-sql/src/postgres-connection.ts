import pg from 'pg';
import { type ConventionContext, conventionContext } from './connection-settings.js';
import { liveCatalog, type PgCatalog } from './pg-catalog.js';
import { isConnectionLoss, transactionOutcome, watchRun, withDeadline } from './pg-outcome.js';
import { resolvePgSettings } from './pg-settings.js';
import { streamQuery } from './pg-streaming.js';
import { pgConnectPlan } from './pg-tls.js';
import { assessSql, type SqlAssessment } from './sql-assessor.js';
import {
  connectOrFail,
  hasUnknownEffect,
  isSqlFailure,
  type PreviewLine,
  type PreviewSkipped,
  previewSkipped,
  type RunOptions,
  type SchemaDescription,
  type SqlConnection,
  type TableDescription,
} from './sql-connection.js';
import { managesTransactions, type PlannedStatement, previewLine, type SqlPlan } from './sql-plan.js';
import { type SqlFailure, type SqlRunResult, type StatementResult, sqlFailure } from './sql-results.js';
import { isReadOnly } from './statement-analysis.js';

/** Reading the schema (at start-up, describe_schema) on a stalled connection gives up after this long. */
const SCHEMA_TIMEOUT_MS = 30_000;
/** The live catalog: on a stalled connection, the assessment goes on with the shipped snapshot after this long. */
const CATALOG_TIMEOUT_MS = 10_000;
/** The planner's estimate for a preview that cannot run: as quick as a preview. */
const ESTIMATE_TIMEOUT_MS = 2_000;
/** How long closing waits for the pool to end before it destroys the connections left. */
const CLOSE_MS = 5_000;

/**
 * PostgreSQL through a small pool. Whitelisted reads run in a READ ONLY transaction; rows are
 * counted as they stream in and only the first are kept (parallel plans stay possible);
 * timeouts are the server's `statement_timeout`; cancellation asks the server to cancel the
 * backend. A connection that ran anything but a read is closed, not returned to the pool, so
 * no SET, temporary table or prepared statement reaches a later whitelisted read.
 */
export class PostgresConnection implements SqlConnection {
  readonly dialect = 'postgres' as const;
  readonly label: string;
  private readonly pool: pg.Pool;
  private typeNames: Map<number, string> | undefined;
  private catalog: Promise<PgCatalog> | undefined;

  private readonly closing = new AbortController();

  private constructor(
    label: string,
    pool: pg.Pool,
    private readonly clientConfig: pg.ClientConfig,
  ) {
    this.pool = pool;
    this.label = label;
  }

  /**
   * Opens a postgres:// URL or libpq keyword string, its missing parts filled as psql fills them
   * (service file, PG* variables, ~/.pgpass, defaults: pg-settings.ts), with sslmode's attempts
   * in libpq's order (pg-tls.ts). The first attempt that connects sets the pool's TLS for good.
   */
  static async open(target: string, given: Partial<ConventionContext> = {}): Promise<PostgresConnection | SqlFailure> {
    const context = conventionContext(given);
    const resolved = resolvePgSettings(target, context);
    if (isSqlFailure(resolved)) return resolved;
    const plan = pgConnectPlan(resolved.settings, context);
    if (isSqlFailure(plan)) return plan;
    const errors: string[] = [];
    for (const clientConfig of plan.attempts) {
      const pool = new pg.Pool({ ...clientConfig, max: 4, idleTimeoutMillis: 30_000 });
      pool.on('error', () => {
        // An idle client lost its connection; the next query reconnects or reports the failure.
      });
      try {
        (await pool.connect()).release();
        return new PostgresConnection(plan.label, pool, clientConfig);
      } catch (error) {
        await pool.end().catch(() => {});
        const how = plan.attempts.length === 1 ? '' : clientConfig.ssl === false ? 'without TLS: ' : 'with TLS: ';
        errors.push(how + (error as Error).message);
        // Nothing listens there: the other attempt would only wait as long again.
        if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|timeout/i.test((error as Error).message)) break;
      }
    }
    const ignored = resolved.ignored === undefined ? '' : ` (${resolved.ignored}, so it was not used)`;
    return sqlFailure('sql-connection-failed', `cannot connect to ${plan.label}: ${errors.join('; ')}${ignored}`);
  }

  /** The server's own catalog, read once on first use. */
  private pgCatalog(): Promise<PgCatalog> {
    this.catalog ??= liveCatalog(this.pool as unknown as Parameters<typeof liveCatalog>[0]).catch((error: unknown) => {
      this.catalog = undefined;
      throw error;
    });
    return this.catalog;
  }

  async assess(sql: string): Promise<SqlAssessment> {
    // Without the live catalog (the server went away), the shipped snapshot still judges.
    const catalog = await withDeadline(this.pgCatalog(), CATALOG_TIMEOUT_MS).catch(() => undefined);
    return assessSql(sql, { dialect: 'postgres', ...(catalog === undefined ? {} : { pgCatalog: catalog }) });
  }

  async run(plan: SqlPlan, given: RunOptions): Promise<SqlRunResult | SqlFailure> {
    // Closing the connection stops what still runs on it (bounded as any cancel is), so closing is bounded too.
    const options = { ...given, signal: AbortSignal.any([given.signal, this.closing.signal]) };
    const started = performance.now();
    const { statements } = plan;
    const client = await connectOrFail(this.label, () => this.pool.connect());
    if (isSqlFailure(client)) return client;
    const pid = (client as unknown as { processID?: number }).processID;
    const watch = watchRun(client, options, (pid) => this.pool.query('SELECT pg_cancel_backend($1)', [pid]));
    const wrap = options.readOnly || !managesTransactions(plan);
    // What was sent: the outcome of a lost connection depends on it.
    let xid: string | undefined;
    let sent = false;
    let broken = false;
    const results: StatementResult[] = [];
    try {
      if (wrap) {
        await client.query(options.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
        await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
        // Temporary files of a whitelisted read (a sort, a materialized series) stop at 1 GB where the
        // server lets this role say so (temp_file_limit is superuser-only) and sets no limit itself.
        if (options.readOnly) {
          await client.query(
            "SELECT CASE WHEN current_setting('is_superuser') = 'on' AND current_setting('temp_file_limit') = '-1' THEN set_config('temp_file_limit', '1048576', true) END",
          );
        }
        // The transaction's id, so that after a lost connection the server can say whether it committed.
        if (!options.readOnly)
          xid = (await client.query<{ xid: string }>('SELECT txid_current()::text AS xid')).rows[0]?.xid;
      } else {
        await client.query(`SET statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
      }
      for (const [index, statement] of statements.entries()) {
        try {
          sent = true;
          results.push(await this.runStatement(client, statement, options.maxRows));
        } catch (error) {
          if (watch.lost() !== undefined || isConnectionLoss(error)) throw error;
          if (wrap) await client.query('ROLLBACK').catch(() => {});
          const failure = postgresFailure(error, options, statements.length > 1 ? index + 1 : undefined);
          return wrap && !options.readOnly
            ? { ...failure, message: `${failure.message}; nothing was changed` }
            : failure;
        }
      }
      if (wrap) await client.query(options.readOnly ? 'ROLLBACK' : 'COMMIT');
      else await client.query('RESET statement_timeout');
      return { statements: results, elapsedMs: performance.now() - started, readOnly: options.readOnly };
    } catch (error) {
      broken = true;
      const lost = watch.lost() ?? (isConnectionLoss(error) ? (error as Error) : undefined);
      if (lost === undefined) return postgresFailure(error, options, undefined);
      return this.afterLoss(lost, { readOnly: options.readOnly, wrap, sent, xid, pid, results, started });
    } finally {
      watch.stop();
      // Only a whitelisted read leaves the session as it found it; anything else may have SET something.
      client.release(broken || !options.readOnly);
    }
  }

  /**
   * The truth after a lost or stalled connection. A read-only run changed nothing. A write in
   * riskgate's own transaction is looked up by its id (committed, rolled back); a script that
   * controls its own transactions, or a server that cannot be asked, is "outcome unknown" —
   * never "failed" for something that may have happened.
   */
  private async afterLoss(
    lost: Error,
    run: {
      readOnly: boolean;
      wrap: boolean;
      sent: boolean;
      xid: string | undefined;
      pid: number | undefined;
      results: StatementResult[];
      started: number;
    },
  ): Promise<SqlRunResult | SqlFailure> {
    const why = `the connection to ${this.label} was lost (${lost.message})`;
    if (run.readOnly) return sqlFailure('sql-connection-failed', `${why}; it ran read-only, so nothing was changed`);
    if (run.wrap ? run.xid === undefined : !run.sent)
      return sqlFailure('sql-connection-failed', `${why} before the statement was sent; nothing was changed`);
    if (!run.wrap) {
      return sqlFailure(
        'sql-outcome-unknown',
        `${why} after the statements were sent; they manage their own transactions, so some may have committed. Check the data before retrying`,
      );
    }
    const xid = run.xid!;
    const outcome = await transactionOutcome(this.clientConfig, xid, run.pid);
    if (outcome === 'aborted')
      return sqlFailure(
        'sql-connection-failed',
        `${why}; the server confirms transaction ${xid} was rolled back: nothing was changed`,
      );
    if (outcome === 'committed') {
      const notice = `Note: ${why} before the reply came back; the server confirms transaction ${xid} committed, so the change was made (row counts may be missing).`;
      return { statements: run.results, elapsedMs: performance.now() - run.started, readOnly: false, notice };
    }
    return sqlFailure(
      'sql-outcome-unknown',
      `${why} after the write was sent, and the server could not say whether transaction ${xid} committed: it may have. Check the data before retrying`,
    );
  }

  private async runStatement(
    client: pg.PoolClient,
    statement: PlannedStatement,
    maxRows: number,
  ): Promise<StatementResult> {
    const result = await streamQuery(client, statement.text, maxRows);
    const changes = /^(INSERT|UPDATE|DELETE|MERGE|COPY)$/.test(result.command ?? '') ? result.rowCount : null;
    return {
      statement: statement.normalized,
      columns: await this.columnsOf(client, result.fields),
      rows: result.rows,
      truncated: result.total > maxRows,
      totalRows: result.total,
      affectedRows: changes,
    };
  }

  private async columnsOf(client: pg.PoolClient, fields: readonly pg.FieldDef[]) {
    if (this.typeNames === undefined) {
      // On the run's own connection, which the stall watchdog bounds.
      const result = await client.query<{ oid: number; typname: string }>(
        'SELECT oid::int AS oid, typname FROM pg_type',
      );
      this.typeNames = new Map(result.rows.map((row) => [row.oid, row.typname]));
    }
    return fields.map((field) => ({ name: field.name, type: this.typeNames?.get(field.dataTypeID) ?? null }));
  }

  /** What each write would run besides itself: triggers and rules always, defaults for INSERT. */
  private async previewBlocker(plan: SqlPlan): Promise<string | undefined> {
    const catalog = await withDeadline(this.pgCatalog(), CATALOG_TIMEOUT_MS).catch(() => undefined);
    if (catalog === undefined)
      return "the server's catalog cannot be read, so what else the write would run is unknown";
    for (const { analysis } of plan.statements) {
      if (analysis.writeTarget === undefined || catalog.inspectWriteTarget === undefined) continue;
      const facts = await catalog.inspectWriteTarget(analysis.writeTarget);
      if (facts.runs.length > 0)
        return `${analysis.writeTarget} has ${facts.runs.join(', ')}, which a preview would run`;
      if (!/^(INSERT|MERGE)\b/i.test(analysis.subject) || facts.defaults.length === 0) continue;
      const defaults = await assessSql(facts.defaults.map((expression) => `SELECT ${expression}`).join(';\n'), {
        dialect: 'postgres',
        pgCatalog: catalog,
      });
      const acting = defaults.statements.find((statement) => !isReadOnly(statement));
      if (acting !== undefined)
        return `a column default of ${analysis.writeTarget} (${acting.subject.replace(/^SELECT /, '')}) acts beyond the transaction`;
    }
    return undefined;
  }

  async estimate(plan: SqlPlan, reason: string): Promise<PreviewSkipped | SqlFailure> {
    // Planning folds IMMUTABLE functions: with a function riskgate cannot vouch for, not even EXPLAIN runs.
    if (hasUnknownEffect(plan)) return previewSkipped(reason);
    const client = await connectOrFail(this.label, () => this.pool.connect());
    if (isSqlFailure(client)) return client;
    const estimates: PreviewLine[] = [];
    // Bounded like a preview, its error events caught: a stalled or dropped connection must not
    // hold the confirmation panel forever, nor crash the session.
    const watch = watchRun(
      client,
      { readOnly: true, maxRows: 0, timeoutMs: ESTIMATE_TIMEOUT_MS, signal: new AbortController().signal },
      (pid) => this.pool.query('SELECT pg_cancel_backend($1)', [pid]),
    );
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${ESTIMATE_TIMEOUT_MS}`);
      for (const [index, statement] of plan.statements.entries()) {
        const { analysis } = statement;
        if (analysis.writeTarget === undefined) continue;
        const result = await client.query<{
          'QUERY PLAN': { Plan: { 'Plan Rows'?: number; Plans?: { 'Plan Rows'?: number }[] } }[];
        }>(`EXPLAIN (FORMAT JSON) ${statement.text}`);
        const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
        const rows = plan?.Plans?.[0]?.['Plan Rows'] ?? plan?.['Plan Rows'];
        const line = rows === undefined ? undefined : previewLine(statement, index, rows, true);
        if (line !== undefined) estimates.push(line);
      }
      return previewSkipped(reason, estimates);
    } catch {
      return previewSkipped(reason);
    } finally {
      watch.stop();
      await client.query('ROLLBACK').catch(() => {});
      client.release(true);
    }
  }

  async preview(
    plan: SqlPlan,
    options: { timeoutMs: number },
  ): Promise<readonly PreviewLine[] | PreviewSkipped | SqlFailure> {
    const blocker = await withDeadline(this.previewBlocker(plan), CATALOG_TIMEOUT_MS).catch(
      (error: Error) => `the table cannot be checked (${error.message})`,
    );
    if (blocker !== undefined) return this.estimate(plan, blocker);
    const client = await connectOrFail(this.label, () => this.pool.connect());
    if (isSqlFailure(client)) return client;
    const lines: PreviewLine[] = [];
    // Bounded like a run: a stalled connection must not hold the confirmation panel forever.
    const watch = watchRun(
      client,
      { readOnly: true, maxRows: 0, timeoutMs: options.timeoutMs, signal: new AbortController().signal },
      (pid) => this.pool.query('SELECT pg_cancel_backend($1)', [pid]),
    );
    try {
      await client.query('BEGIN');
      const ms = Math.max(1, Math.floor(options.timeoutMs));
      await client.query(`SET LOCAL statement_timeout = ${ms}`);
      await client.query(`SET LOCAL lock_timeout = ${ms}`);
      for (const [index, statement] of plan.statements.entries()) {
        const result = await client.query(statement.text);
        const line = result.rowCount === null ? undefined : previewLine(statement, index, result.rowCount);
        if (line !== undefined) lines.push(line);
      }
      return lines;
    } catch (error) {
      const lost = watch.lost();
      if (lost !== undefined)
        return sqlFailure(
          'sql-connection-failed',
          `the preview's connection was lost (${lost.message}); a preview changes nothing`,
        );
      return postgresFailure(error, { timeoutMs: options.timeoutMs, signal: new AbortController().signal }, undefined);
    } finally {
      watch.stop();
      await client.query('ROLLBACK').catch(() => {});
      client.release(true);
    }
  }

  async describeSchema(table?: string): Promise<SchemaDescription | SqlFailure> {
    const client = await connectOrFail(this.label, () => this.pool.connect());
    if (isSqlFailure(client)) return client;
    const watch = watchRun(
      client,
      { readOnly: true, maxRows: 0, timeoutMs: SCHEMA_TIMEOUT_MS, signal: new AbortController().signal },
      (pid) => this.pool.query('SELECT pg_cancel_backend($1)', [pid]),
    );
    try {
      await client.query('BEGIN READ ONLY');
      const relations = await client.query<{
        oid: number;
        schema: string;
        name: string;
        kind: string;
        estimate: number;
      }>(
        `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relkind AS kind, c.reltuples::float8 AS estimate
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p', 'v', 'm')
            AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
            AND ($1::text IS NULL OR lower(c.relname) = lower($1) OR lower(n.nspname || '.' || c.relname) = lower($1))
          ORDER BY n.nspname, c.relname`,
        [table ?? null],
      );
      if (table !== undefined && relations.rows.length === 0) {
        return sqlFailure('sql-missing-table', `no table or view named ${table}`);
      }
      const tables: TableDescription[] = [];
      for (const relation of relations.rows) {
        const columns = await client.query<{ name: string; type: string; nullable: boolean; primary: boolean }>(
          `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
                  EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS primary
             FROM pg_attribute a WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
          [relation.oid],
        );
        const foreignKeys = await client.query<{ definition: string; columns: string }>(
          `SELECT pg_get_constraintdef(oid) AS definition,
                  (SELECT string_agg(attname, ', ') FROM pg_attribute WHERE attrelid = conrelid AND attnum = ANY (conkey)) AS columns
             FROM pg_constraint WHERE conrelid = $1 AND contype = 'f'`,
          [relation.oid],
        );
        const indexes = await client.query<{ name: string; unique: boolean; columns: string[] }>(
          `SELECT ic.relname AS name, i.indisunique AS unique,
                  ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_subscripts(i.indkey, 1) AS k ORDER BY k) AS columns
             FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
            WHERE i.indrelid = $1 AND NOT i.indisprimary ORDER BY ic.relname`,
          [relation.oid],
        );
        tables.push({
          name: relation.schema === 'public' ? relation.name : `${relation.schema}.${relation.name}`,
          kind: relation.kind === 'v' || relation.kind === 'm' ? 'view' : 'table',
          rowEstimate: relation.estimate < 0 ? null : Math.round(relation.estimate),
          columns: columns.rows.map((column) => ({
            name: column.name,
            type: column.type,
            nullable: column.nullable,
            primaryKey: column.primary,
          })),
          foreignKeys: foreignKeys.rows.map((key) => ({
            column: key.columns,
            references: key.definition.replace(/^FOREIGN KEY \([^)]*\) REFERENCES /, ''),
          })),
          indexes: indexes.rows.map((index) => ({ name: index.name, unique: index.unique, columns: index.columns })),
        });
      }
      return { dialect: 'postgres', database: this.label, tables };
    } catch (error) {
      return postgresFailure(error, { timeoutMs: 0, signal: new AbortController().signal }, undefined);
    } finally {
      watch.stop();
      await client.query('ROLLBACK').catch(() => {});
      client.release(watch.lost() !== undefined);
    }
  }

  /**
   * Ends the pool within CLOSE_MS whatever the network does: calls still running are cancelled
   * (and their connections closed when no reply comes), and sockets still open after the bound are
   * destroyed — `pool.end()` alone waited for a call on a stalled connection, so exit hung.
   */
  async close(): Promise<void> {
    this.closing.abort();
    await withDeadline(this.pool.end(), CLOSE_MS).catch(() => {
      for (const client of (this.pool as unknown as { _clients?: { connection?: { stream?: { destroy(): void } } }[] })
        ._clients ?? [])
        client.connection?.stream?.destroy();
    });
  }
}

function postgresFailure(
  error: unknown,
  options: Pick<RunOptions, 'timeoutMs' | 'signal'>,
  statementIndex: number | undefined,
): SqlFailure {
  const database = error as { code?: string; message?: string; position?: string };
  const message = database.message ?? String(error);
  const prefix = statementIndex === undefined ? '' : `statement ${statementIndex}: `;
  const extra = {
    ...(statementIndex === undefined ? {} : { statementIndex }),
    ...(database.position === undefined ? {} : { position: Number(database.position) }),
  };
  switch (database.code) {
    case '57014':
      return options.signal.aborted
        ? sqlFailure('sql-cancelled', `${prefix}the query was cancelled on the server`, extra)
        : sqlFailure(
            'sql-timeout',
            `${prefix}the statement ran longer than ${options.timeoutMs} ms and was cancelled on the server`,
            extra,
          );
    case '42601':
      return sqlFailure('sql-syntax-error', prefix + message, extra);
    case '42P01':
      return sqlFailure('sql-missing-table', prefix + message, extra);
    case '42501':
      return sqlFailure('sql-permission-denied', prefix + message, extra);
    case '25006':
      return sqlFailure('sql-read-only', `${prefix}refused in the read-only transaction: ${message}`, extra);
    case '55P03':
      return sqlFailure('sql-timeout', `${prefix}waited too long for a lock: ${message}`, extra);
    default:
      if (database.code?.startsWith('23')) return sqlFailure('sql-constraint-violation', prefix + message, extra);
      if (database.code?.startsWith('08') || /ECONNREFUSED|ECONNRESET|ENOTFOUND|terminated/i.test(message)) {
        return sqlFailure('sql-connection-failed', prefix + message, extra);
      }
      return sqlFailure('sql-error', prefix + message, extra);
  }
}
