import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { assessSql, type SqlAssessment } from './sql-assessor.js';
import {
  type PreviewLine,
  type PreviewSkipped,
  previewSkipped,
  type RunOptions,
  type SchemaDescription,
  type SqlConnection,
  type TableDescription,
} from './sql-connection.js';
import { changesRows, managesTransactions, type PlannedStatement, previewLine, type SqlPlan } from './sql-plan.js';
import { type SqlFailure, type SqlRunResult, type StatementResult, sqlFailure } from './sql-results.js';
import { SqliteReader, SqliteReadError, SqliteReadStopped } from './sqlite-reader.js';
import { forgetSchemaSnapshot, schemaSnapshot } from './sqlite-schema-snapshot.js';
import { runSqliteWrite } from './sqlite-writer.js';

/** describe_schema counts rows up to this many, so a large table costs no full scan. */
const ROW_COUNT_CAP = 100_000;

/**
 * A SQLite database file (or `:memory:`). A read-write handle for confirmed statements; whitelisted
 * reads run in a child process with a handle opened SQLITE_OPEN_READONLY (sqlite-reader.ts), so a
 * read that turns out to write fails instead of writing, and one that runs too long is stopped.
 * `:memory:` has one handle and uses `PRAGMA query_only` for reads instead.
 */
export class SqliteConnection implements SqlConnection {
  readonly dialect = 'sqlite' as const;
  readonly label: string;
  private readonly writable: Database.Database;
  private readonly readable: Database.Database | undefined;
  private readonly reader: SqliteReader | undefined;

  private constructor(
    readonly path: string,
    writable: Database.Database,
    readable: Database.Database | undefined,
    identity?: { readonly dev: string; readonly ino: string },
  ) {
    this.label = path;
    this.writable = writable;
    this.readable = readable;
    this.reader = readable === undefined ? undefined : new SqliteReader(path, identity);
  }

  static open(target: string, options: { create?: boolean } = {}): SqliteConnection | SqlFailure {
    const memory = target === ':memory:';
    const path = memory ? target : resolve(target);
    if (!memory && !options.create && !existsSync(path)) {
      return sqlFailure('sql-connection-failed', `no SQLite database at ${path} (the file does not exist)`);
    }
    try {
      const before = memory || !existsSync(path) ? undefined : fileIdentity(path);
      const writable = new Database(path);
      writable.pragma('busy_timeout = 5000');
      // A writer killed mid-transaction (riskgate itself, SIGKILLed) leaves a hot journal that
      // only a connection that may write can roll back; until then every read-only connection —
      // the whitelisted reads' — fails with "attempt to write a readonly database". A first read
      // here rolls it back, as any program opening the file would.
      if (!memory) {
        try {
          writable.prepare('SELECT count(*) FROM sqlite_master').get();
        } catch {
          // A file this process may not write: the read-only connections say so themselves.
        }
      }
      const readable = memory ? undefined : new Database(path, { readonly: true, fileMustExist: true });
      readable?.pragma('busy_timeout = 5000');
      const identity = memory ? undefined : fileIdentity(path);
      // Moved over while it was being opened: which file each handle holds is unknown.
      if (before !== undefined && (before.dev !== identity?.dev || before.ino !== identity.ino)) {
        readable?.close();
        writable.close();
        return sqlFailure('sql-connection-failed', `${path} was replaced while riskgate opened it; try again`);
      }
      return new SqliteConnection(path, writable, readable, identity);
    } catch (error) {
      return sqlFailure('sql-connection-failed', `cannot open SQLite database ${path}: ${(error as Error).message}`);
    }
  }

  assess(sql: string): Promise<SqlAssessment> {
    return assessSql(sql, { dialect: 'sqlite', sqlite: this.writable });
  }

  async run(plan: SqlPlan, options: RunOptions): Promise<SqlRunResult | SqlFailure> {
    try {
      return await this.runPlan(plan, options);
    } finally {
      // Confirmed statements may change what the snapshot's key does not show (a ROLLBACK, a
      // DETACH and an ATTACH of another file under the same name on :memory:): forgotten.
      if (!options.readOnly) forgetSchemaSnapshot(this.writable);
    }
  }

  private async runPlan(plan: SqlPlan, options: RunOptions): Promise<SqlRunResult | SqlFailure> {
    const started = performance.now();
    const { statements } = plan;
    // Reads run where they can be stopped, confirmed ones too (a confirmed endless CTE must not hang riskgate).
    if (this.reader !== undefined && (options.readOnly || this.onlyReads(statements))) {
      try {
        const results = await this.reader.read(statements, options);
        return { statements: results, elapsedMs: performance.now() - started, readOnly: options.readOnly };
      } catch (error) {
        if (error instanceof SqliteReadStopped) {
          return error.why === 'timeout'
            ? sqlFailure('sql-timeout', `the statement ran longer than ${options.timeoutMs} ms and was stopped`)
            : sqlFailure('sql-cancelled', 'the query was cancelled');
        }
        if (error instanceof SqliteReadError)
          return sqliteFailure(
            Object.assign(new Error(error.message), { code: error.code }),
            undefined,
            statements.length,
          );
        throw error;
      }
    }
    // Confirmed statements on a file run in a process of their own that the deadline can stop.
    if (!options.readOnly && this.readable !== undefined) return this.runInWriter(statements, options, started);
    const database = options.readOnly && this.readable !== undefined ? this.readable : this.writable;
    const queryOnly = options.readOnly && this.readable === undefined;
    const ownTransaction = !options.readOnly && statements.length > 1 && !managesTransactions(plan);
    const deadline = Date.now() + options.timeoutMs;
    const results: StatementResult[] = [];
    if (queryOnly) database.pragma('query_only = ON');
    if (ownTransaction) database.exec('BEGIN');
    try {
      for (const [index, statement] of statements.entries()) {
        if (options.signal.aborted) throw new CancelledError();
        try {
          results.push(runStatement(database, statement, options.maxRows, deadline));
        } catch (error) {
          if (error instanceof CancelledError || error instanceof TimeoutError) throw error;
          if (ownTransaction) database.exec('ROLLBACK');
          const failure = sqliteFailure(error, index + 1, statements.length);
          return ownTransaction ? { ...failure, message: `${failure.message}; nothing was changed` } : failure;
        }
      }
      if (ownTransaction) database.exec('COMMIT');
    } catch (error) {
      if (ownTransaction && database.inTransaction) database.exec('ROLLBACK');
      if (error instanceof TimeoutError)
        return sqlFailure('sql-timeout', `the statement ran longer than ${options.timeoutMs} ms and was stopped`);
      if (error instanceof CancelledError) return sqlFailure('sql-cancelled', 'the query was cancelled');
      throw error;
    } finally {
      if (queryOnly) database.pragma('query_only = OFF');
    }
    return { statements: results, elapsedMs: performance.now() - started, readOnly: options.readOnly };
  }

  private async runInWriter(
    statements: readonly PlannedStatement[],
    options: RunOptions,
    started: number,
  ): Promise<SqlRunResult | SqlFailure> {
    const outcome = await runSqliteWrite(this.path, statements, options);
    if (outcome.kind === 'done')
      return { statements: outcome.results, elapsedMs: performance.now() - started, readOnly: false };
    if (outcome.kind === 'preview') return sqlFailure('sql-error', 'the SQLite writer answered a preview');
    if (outcome.kind === 'error') {
      const failure = sqliteFailure(
        Object.assign(new Error(outcome.message), { code: outcome.code }),
        outcome.statementIndex,
        statements.length,
      );
      return outcome.rolledBack && statements.length > 1
        ? { ...failure, message: `${failure.message}; nothing was changed` }
        : failure;
    }
    const what =
      outcome.why === 'timeout'
        ? `the statement ran longer than ${options.timeoutMs} ms and was stopped`
        : outcome.why === 'cancelled'
          ? 'the query was cancelled'
          : '';
    const text = what === '' ? outcome.detail : `${what}; ${outcome.detail}`;
    // Never "stopped" for a write that may have committed: a retry would apply it twice.
    if (outcome.changed === 'unknown') return sqlFailure('sql-outcome-unknown', text);
    return sqlFailure(
      outcome.why === 'timeout' ? 'sql-timeout' : outcome.why === 'cancelled' ? 'sql-cancelled' : 'sql-error',
      text,
    );
  }

  /** SELECT/WITH/VALUES that SQLite itself calls read-only: they can run in the reader process. */
  private onlyReads(statements: readonly PlannedStatement[]): boolean {
    return (
      statements.length > 0 &&
      statements.every((statement) => {
        if (!['SELECT', 'WITH', 'VALUES'].includes(statement.verb)) return false;
        // Prepared once while the schema is unchanged (the assessor prepared the same text).
        const prepared = schemaSnapshot(this.writable).prepared(statement.text);
        return !(prepared instanceof Error) && prepared.readonly && prepared.reader;
      })
    );
  }

  async estimate(_plan: SqlPlan, reason: string): Promise<PreviewSkipped> {
    return previewSkipped(reason);
  }

  async preview(
    plan: SqlPlan,
    options: { timeoutMs: number } = { timeoutMs: 2_000 },
  ): Promise<readonly PreviewLine[] | PreviewSkipped | SqlFailure> {
    const { statements } = plan;
    // On a file, the rolled-back run happens in a writer process stopped at the preview's time
    // limit: in riskgate's thread an endless UPDATE blocked the panel, and riskgate, for good.
    if (this.readable !== undefined) {
      const counts = statements.map((statement) => statement.analysis.writeTarget !== undefined);
      const outcome = await runSqliteWrite(this.path, statements, {
        maxRows: 0,
        timeoutMs: options.timeoutMs,
        signal: new AbortController().signal,
        preview: counts,
      });
      if (outcome.kind === 'error')
        return sqliteFailure(
          Object.assign(new Error(outcome.message), { code: outcome.code }),
          undefined,
          statements.length,
        );
      if (outcome.kind === 'stopped') {
        return previewSkipped(
          outcome.why === 'timeout'
            ? `the rolled-back run took longer than ${options.timeoutMs} ms and was stopped; nothing was changed`
            : outcome.detail,
        );
      }
      if (outcome.kind !== 'preview') return previewSkipped('the preview did not run');
      return statements.flatMap((statement, index) => {
        const rows = outcome.changes[index];
        const line = rows === null || rows === undefined ? undefined : previewLine(statement, index, rows);
        return line === undefined ? [] : [line];
      });
    }
    const lines: PreviewLine[] = [];
    this.writable.exec('BEGIN');
    try {
      for (const [index, statement] of statements.entries()) {
        const { analysis } = statement;
        const prepared = this.writable.prepare(statement.text);
        let changes: number;
        if (prepared.reader && analysis.writeTarget === undefined) {
          // A read between the writes: one row is enough to run it.
          const iterator = prepared.iterate();
          iterator.next();
          iterator.return?.();
          continue;
        } else if (prepared.reader) {
          // A write with RETURNING returns one row per row it changes: count them, keep none.
          changes = 0;
          for (const _row of prepared.iterate()) changes++;
        } else {
          changes = prepared.run().changes;
        }
        const line = previewLine(statement, index, changes);
        if (line !== undefined) lines.push(line);
      }
      return lines;
    } catch (error) {
      return sqliteFailure(error, undefined, statements.length);
    } finally {
      if (this.writable.inTransaction) this.writable.exec('ROLLBACK');
      forgetSchemaSnapshot(this.writable);
    }
  }

  async describeSchema(table?: string): Promise<SchemaDescription | SqlFailure> {
    const database = this.readable ?? this.writable;
    try {
      const names = database
        .prepare(
          "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as { name: string; type: string }[];
      const chosen =
        table === undefined ? names : names.filter((entry) => entry.name.toLowerCase() === table.toLowerCase());
      if (table !== undefined && chosen.length === 0) {
        return sqlFailure(
          'sql-missing-table',
          `no table or view named ${table}; tables: ${names.map((entry) => entry.name).join(', ') || 'none'}`,
        );
      }
      const tables: TableDescription[] = chosen.map((entry) => describeSqliteTable(database, entry.name, entry.type));
      return { dialect: 'sqlite', database: this.label, tables };
    } catch (error) {
      return sqliteFailure(error, undefined, 1);
    }
  }

  async close(): Promise<void> {
    await this.reader?.close();
    this.readable?.close();
    this.writable.close();
  }
}

/** The device and inode at a path now: the reader process refuses to read another file there. */
function fileIdentity(path: string): { dev: string; ino: string } {
  const stats = statSync(path, { bigint: true });
  return { dev: String(stats.dev), ino: String(stats.ino) };
}

class CancelledError extends Error {}
class TimeoutError extends Error {}

function runStatement(
  database: Database.Database,
  statement: PlannedStatement,
  maxRows: number,
  deadline: number,
): StatementResult {
  const normalized = statement.normalized;
  const prepared = database.prepare(statement.text);
  if (!prepared.reader) {
    const { changes } = prepared.run();
    return { statement: normalized, columns: [], rows: [], truncated: false, affectedRows: changes };
  }
  prepared.raw(true);
  const columns = prepared.columns().map((column) => ({ name: column.name, type: column.type }));
  const rows: unknown[][] = [];
  let truncated = false;
  // Only the first rows are ever read: a million-row result never sits in memory.
  for (const row of prepared.iterate() as IterableIterator<unknown[]>) {
    if (rows.length === maxRows) {
      truncated = true;
      break;
    }
    rows.push(row);
    if (rows.length % 256 === 0 && Date.now() > deadline) throw new TimeoutError();
  }
  return { statement: normalized, columns, rows, truncated, affectedRows: changesRows(statement) ? rows.length : null };
}

function describeSqliteTable(database: Database.Database, name: string, type: string): TableDescription {
  const quoted = `"${name.replaceAll('"', '""')}"`;
  const columns = database
    .prepare('SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?) ORDER BY cid')
    .all(name) as {
    name: string;
    type: string;
    not_null: number;
    pk: number;
  }[];
  const foreignKeys = database
    .prepare('SELECT "from" AS column, "table" AS refTable, "to" AS refColumn FROM pragma_foreign_key_list(?)')
    .all(name) as {
    column: string;
    refTable: string;
    refColumn: string | null;
  }[];
  const indexes = database
    .prepare('SELECT name, "unique" AS isUnique FROM pragma_index_list(?) WHERE origin != \'pk\'')
    .all(name) as {
    name: string;
    isUnique: number;
  }[];
  // A view's rows are not counted: counting runs its query, which may never yield a first row (an
  // endless recursive CTE in a hostile file hung riskgate's thread for good, unasked, at start).
  const rowCount =
    type === 'view'
      ? null
      : (
          database.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${quoted} LIMIT ${ROW_COUNT_CAP + 1})`).get() as {
            n: number;
          }
        ).n;
  return {
    name,
    kind: type === 'view' ? 'view' : 'table',
    rowEstimate: rowCount === null ? null : Math.min(rowCount, ROW_COUNT_CAP),
    ...(rowCount !== null && rowCount > ROW_COUNT_CAP ? { rowCountCapped: true } : {}),
    columns: columns.map((column) => ({
      name: column.name,
      type: column.type || null,
      nullable: column.not_null === 0 && column.pk === 0,
      primaryKey: column.pk > 0,
    })),
    foreignKeys: foreignKeys.map((key) => ({
      column: key.column,
      references: `${key.refTable}(${key.refColumn ?? 'rowid'})`,
    })),
    indexes: indexes.map((index) => {
      const indexColumns = (
        database.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name) as {
          name: string | null;
        }[]
      ).map((column) => column.name ?? '(expression)');
      return { name: index.name, columns: indexColumns, unique: index.isUnique === 1 };
    }),
  };
}

function sqliteFailure(error: unknown, statementIndex: number | undefined, statementCount: number): SqlFailure {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? '';
  const where = statementIndex !== undefined && statementCount > 1 ? { statementIndex } : {};
  const prefix = statementIndex !== undefined && statementCount > 1 ? `statement ${statementIndex}: ` : '';
  if (/no such table|no such view/i.test(message)) return sqlFailure('sql-missing-table', prefix + message, where);
  if (/syntax error|incomplete input|unrecognized token/i.test(message))
    return sqlFailure('sql-syntax-error', prefix + message, where);
  if (code === 'SQLITE_READONLY' || /readonly database|query_only|attempt to write a readonly/i.test(message)) {
    return sqlFailure('sql-read-only', `${prefix}refused on the read-only connection: ${message}`, where);
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) return sqlFailure('sql-constraint-violation', prefix + message, where);
  if (code === 'SQLITE_AUTH' || code === 'SQLITE_PERM')
    return sqlFailure('sql-permission-denied', prefix + message, where);
  return sqlFailure('sql-error', prefix + message, where);
}
