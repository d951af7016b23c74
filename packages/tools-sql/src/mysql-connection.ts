import type { Connection, FieldPacket, Pool, PoolConnection, ResultSetHeader } from 'mysql2';
import { type ConventionContext, conventionContext } from './connection-settings.js';
import { loadWithDriver } from './drivers.js';
import type { MysqlKnowledge } from './mysql-analysis.js';
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
import { type PlannedStatement, previewLine, type SqlPlan } from './sql-plan.js';
import { isConnectionLoss, mysqlFailure } from './mysql-failures.js';
import { mysqlAttempts, resolveMysqlSettings } from './mysql-settings.js';
import { type SqlFailure, type SqlRunResult, type StatementResult, sqlFailure } from './sql-results.js';

type Mysql2 = typeof import('mysql2');

/** How long after a timeout or a cancel the run's own connection may stay silent before it is closed. */
const STALL_GRACE_MS = 2_000;

/**
 * What riskgate reads for itself (the version, sql_mode, view definitions, engines, schema) gives
 * up after this long: a stalled connection must not hold the assessment or the panel forever.
 */
const CATALOG_TIMEOUT_MS = 10_000;
/** describe_schema as a whole: a few catalog queries. */
const SCHEMA_TIMEOUT_MS = 15_000;
/** How long closing waits for the pool to end before it destroys the connections left. */
const CLOSE_MS = 5_000;

/**
 * MySQL/MariaDB through mysql2 (loaded on first connection). Every statement is sent alone with
 * multi-statements off, so a text the server would split differently than riskgate's lexer is a
 * syntax error, never a second statement. Whitelisted reads run in START TRANSACTION READ ONLY;
 * the statement timeout is the server's (max_statement_time on MariaDB, max_execution_time on
 * MySQL) backed by KILL QUERY from a second connection, which is also how cancellation works.
 * A connection that ran anything but a read is closed, so no SET or user variable outlives it.
 */
export class MysqlConnection implements SqlConnection {
  readonly dialect = 'mysql' as const;

  private readonly closing = new AbortController();

  private constructor(
    private readonly pool: Pool,
    readonly label: string,
    private readonly mariadb: boolean,
  ) {}

  /**
   * Opens a mysql:// or mariadb:// URL, its missing parts filled as the mysql client fills them
   * (option files, MYSQL_* variables: mysql-settings.ts), TLS as its ssl-mode says. PREFERRED falls
   * back to plaintext only when the server says it has no TLS; REQUIRED and stronger never do.
   */
  static async open(target: string, given: Partial<ConventionContext> = {}): Promise<MysqlConnection | SqlFailure> {
    const context = conventionContext(given);
    const settings = resolveMysqlSettings(target, context);
    if (isSqlFailure(settings)) return settings;
    const attempts = mysqlAttempts(settings, context);
    if (isSqlFailure(attempts)) return attempts;
    const loaded = await loadWithDriver('mysql', () => import('mysql2'));
    if (isSqlFailure(loaded)) return loaded;
    const mysql = ((loaded as { default?: Mysql2 }).default ?? loaded) as Mysql2;
    const get = (key: string) => settings.get(key)?.value ?? '';
    const where = attempts[0]!.socketPath === undefined ? `${get('host')}:${get('port')}` : 'localhost';
    const label = `${target.split(':')[0]!.toLowerCase()}://${encodeURIComponent(get('user'))}@${where}/${encodeURIComponent(get('database'))}`;
    const database = get('database') || undefined;
    for (const [index, options] of attempts.entries()) {
      const pool = mysql.createPool({
        ...options,
        multipleStatements: false,
        connectionLimit: 4,
        connectTimeout: 10_000,
        supportBigNumbers: true,
        dateStrings: true,
      });
      try {
        const [rows] = await pool
          .promise()
          .query({ sql: 'SELECT VERSION() AS version', rowsAsArray: true, timeout: CATALOG_TIMEOUT_MS });
        const version = String((rows as unknown[][])[0]?.[0] ?? '');
        return new MysqlConnection(pool, label, /mariadb/i.test(version));
      } catch (error) {
        await pool
          .promise()
          .end()
          .catch(() => {});
        const code = (error as { code?: string }).code;
        // PREFERRED: plaintext only after the server said it has no TLS, never after a failed handshake.
        if (code === 'HANDSHAKE_NO_SSL_SUPPORT' && index + 1 < attempts.length) continue;
        return sqlFailure(
          'sql-connection-failed',
          `cannot connect to ${label}: ${connectFailure(error, database, get('ssl-mode'))}`,
        );
      }
    }
    return sqlFailure('sql-connection-failed', `cannot connect to ${label}`);
  }

  private async knowledge(): Promise<MysqlKnowledge> {
    const [rows] = await this.pool
      .promise()
      .query({ sql: 'SELECT @@SESSION.sql_mode, DATABASE()', rowsAsArray: true, timeout: CATALOG_TIMEOUT_MS });
    const [mode, database] = (rows as unknown[][])[0] ?? [];
    return {
      backslashEscapes: !String(mode ?? '').includes('NO_BACKSLASH_ESCAPES'),
      ...(database === null || database === undefined ? {} : { database: String(database) }),
      viewDefinitions: (tables) => this.viewDefinitions(tables),
      keyValueTables: (tables) => this.keyValueTables(tables),
    };
  }

  /** Base tables with a text key column (key|k|name) and a value column (value|val|v), with their keys (first 10,000 rows). */
  private async keyValueTables(
    tables: readonly { schema?: string; name: string }[],
  ): Promise<ReadonlyMap<string, { value: string; keys: readonly string[] }>> {
    const conditions = tables.map(() => '(c.TABLE_SCHEMA = COALESCE(?, DATABASE()) AND c.TABLE_NAME = ?)').join(' OR ');
    const [rows] = await this.pool.promise().query({
      timeout: CATALOG_TIMEOUT_MS,
      sql: `SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE FROM information_schema.COLUMNS c
              JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME AND t.TABLE_TYPE = 'BASE TABLE'
             WHERE (${conditions}) AND LOWER(c.COLUMN_NAME) IN ('key', 'k', 'name', 'value', 'val', 'v')`,
      values: tables.flatMap((table) => [table.schema ?? null, table.name]),
      rowsAsArray: true,
    });
    const byTable = new Map<
      string,
      { schema: string; table: string; columns: Map<string, { name: string; type: string }> }
    >();
    for (const [schema, table, column, type] of rows as [string, string, string, string][]) {
      const id = `${schema}.${table}`;
      if (!byTable.has(id)) byTable.set(id, { schema, table, columns: new Map() });
      byTable.get(id)!.columns.set(column.toLowerCase(), { name: column, type: type.toLowerCase() });
    }
    const found = new Map<string, { value: string; keys: readonly string[] }>();
    const quote = (name: string) => `\`${name.replaceAll('`', '``')}\``;
    for (const [id, { schema, table, columns }] of byTable) {
      const key = ['key', 'k', 'name']
        .map((name) => columns.get(name))
        .find((column) => column !== undefined && /char|text/.test(column.type));
      const value = ['value', 'val', 'v'].map((name) => columns.get(name)).find((column) => column !== undefined);
      if (key === undefined || value === undefined) continue;
      const [keys] = await this.pool.promise().query({
        timeout: CATALOG_TIMEOUT_MS,
        sql: `SELECT DISTINCT CAST(k AS CHAR) FROM (SELECT ${quote(key.name)} AS k FROM ${quote(schema)}.${quote(table)} LIMIT 10000) AS rows_read WHERE k IS NOT NULL`,
        rowsAsArray: true,
      });
      found.set(id.toLowerCase(), { value: value.name, keys: (keys as [string][]).map(([name]) => String(name)) });
    }
    return found;
  }

  private async viewDefinitions(
    tables: readonly { schema?: string; name: string }[],
  ): Promise<ReadonlyMap<string, string>> {
    const conditions = tables.map(() => '(TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?)').join(' OR ');
    const [rows] = await this.pool.promise().query({
      timeout: CATALOG_TIMEOUT_MS,
      sql: `SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME), VIEW_DEFINITION FROM information_schema.VIEWS WHERE ${conditions}`,
      values: tables.flatMap((table) => [table.schema ?? null, table.name]),
      rowsAsArray: true,
    });
    return new Map((rows as [string, string | null][]).map(([name, definition]) => [name, definition ?? '']));
  }

  async assess(sql: string): Promise<SqlAssessment> {
    // Without the server's sql_mode, both readings of backslashes are checked.
    const knowledge = await this.knowledge().catch(() => ({}));
    return assessSql(sql, { dialect: 'mysql', mysql: knowledge });
  }

  private connect(): Promise<PoolConnection> {
    return new Promise((resolve, reject) =>
      this.pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    );
  }

  private async timeoutSetting(connection: Connection, timeoutMs: number): Promise<void> {
    const ms = Math.max(1, Math.floor(timeoutMs));
    await query(
      connection,
      this.mariadb ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`,
    );
  }

  /** KILL QUERY from another connection: the statement stops on the server, the connection lives. */
  private killQuery(threadId: number | null): void {
    if (threadId === null) return;
    this.pool.query(`KILL QUERY ${Number(threadId)}`, () => {});
  }

  async run(plan: SqlPlan, given: RunOptions): Promise<SqlRunResult | SqlFailure> {
    // Closing the connection stops what still runs on it (bounded as any cancel is), so closing is bounded too.
    const options = { ...given, signal: AbortSignal.any([given.signal, this.closing.signal]) };
    const started = performance.now();
    const { statements } = plan;
    const connection = await connectOrFail(this.label, () => this.connect());
    if (isSqlFailure(connection)) return connection;
    const threadId = connection.threadId;
    const watch = watchMysqlRun(connection, options, () => this.killQuery(threadId));
    const results: StatementResult[] = [];
    let index = 0;
    let sent = false;
    try {
      await watch.step(this.timeoutSetting(connection, options.timeoutMs));
      if (options.readOnly) await watch.step(query(connection, 'START TRANSACTION READ ONLY'));
      for (const [position, statement] of statements.entries()) {
        index = position;
        if (options.signal.aborted) watch.stop('cancelled');
        if (watch.stopped() !== undefined) break;
        sent = true;
        results.push(await watch.step(streamStatement(connection, statement, options.maxRows)));
      }
      if (options.readOnly) await watch.step(query(connection, 'ROLLBACK'));
      if (watch.stopped() !== undefined) throw Object.assign(new Error('stopped'), { code: 'ER_QUERY_INTERRUPTED' });
      return { statements: results, elapsedMs: performance.now() - started, readOnly: options.readOnly };
    } catch (error) {
      const statementIndex = statements.length > 1 ? index + 1 : undefined;
      const lost = watch.lost();
      if (lost !== undefined || isConnectionLoss(error))
        return this.afterLoss(lost ?? (error as Error), { readOnly: options.readOnly, sent, threadId, statementIndex });
      return mysqlFailure(error, watch.stopped(), options.timeoutMs, statementIndex);
    } finally {
      watch.dispose();
      if (options.readOnly && watch.stopped() === undefined && watch.lost() === undefined) connection.release();
      else connection.destroy();
    }
  }

  /**
   * The truth after a lost or stalled connection. A read-only run changed nothing; a write
   * already sent may have committed (each statement commits by itself), and MySQL keeps no
   * record to ask — so it is "outcome unknown", never "failed". A server thread still running
   * it is ended, so it cannot commit later, behind the person's back.
   */
  private async afterLoss(
    lost: Error,
    run: { readOnly: boolean; sent: boolean; threadId: number | null; statementIndex: number | undefined },
  ): Promise<SqlFailure> {
    const why = `the connection to ${this.label} was lost (${lost.message})`;
    const where = run.statementIndex === undefined ? {} : { statementIndex: run.statementIndex };
    if (run.readOnly)
      return sqlFailure('sql-connection-failed', `${why}; it ran read-only, so nothing was changed`, where);
    if (!run.sent)
      return sqlFailure('sql-connection-failed', `${why} before the statement was sent; nothing was changed`, where);
    const ended = await this.endThread(run.threadId);
    return sqlFailure(
      'sql-outcome-unknown',
      `${why} after the write was sent: it may have been applied${ended ? ' (riskgate ended its server session, so it cannot go on running)' : ''}. Check the data before retrying`,
      where,
    );
  }

  /** KILL CONNECTION of a thread that may still run a write, bounded in time; whether it was done. */
  private async endThread(threadId: number | null): Promise<boolean> {
    if (threadId === null) return false;
    const killing = new Promise<boolean>((resolve) =>
      this.pool.query(`KILL CONNECTION ${Number(threadId)}`, (error) =>
        resolve(error === null || (error as { errno?: number }).errno === 1094),
      ),
    );
    return Promise.race([killing, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STALL_GRACE_MS))]);
  }

  /** Why a rolled-back run could act beyond the transaction: a trigger, or a table that cannot roll back. */
  private async previewBlocker(plan: SqlPlan): Promise<string | undefined> {
    for (const { analysis } of plan.statements) {
      if (analysis.writeTarget === undefined) continue;
      const [schema, table] = analysis.writeTarget.includes('.')
        ? analysis.writeTarget.split('.', 2)
        : [undefined, analysis.writeTarget];
      const [rows] = await this.pool.promise().query({
        timeout: CATALOG_TIMEOUT_MS,
        sql: `SELECT (SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?) AS engine,
                     (SELECT GROUP_CONCAT(TRIGGER_NAME) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = COALESCE(?, DATABASE()) AND EVENT_OBJECT_TABLE = ?) AS triggers`,
        values: [schema ?? null, table, schema ?? null, table],
        rowsAsArray: true,
      });
      const [engine, triggers] = (rows as unknown[][])[0] ?? [];
      if (triggers !== null && triggers !== undefined)
        return `${analysis.writeTarget} has the trigger ${String(triggers)}, which a preview would run`;
      if (engine !== null && engine !== undefined && String(engine).toLowerCase() !== 'innodb') {
        return `${analysis.writeTarget} uses the ${String(engine)} engine, which cannot roll back`;
      }
    }
    return undefined;
  }

  async estimate(plan: SqlPlan, reason: string): Promise<PreviewSkipped | SqlFailure> {
    if (hasUnknownEffect(plan)) return previewSkipped(reason);
    const estimates: PreviewLine[] = [];
    try {
      for (const [index, statement] of plan.statements.entries()) {
        const { analysis } = statement;
        if (analysis.writeTarget === undefined) continue;
        const [rows] = await this.pool
          .promise()
          .query({ sql: `EXPLAIN ${statement.text}`, timeout: CATALOG_TIMEOUT_MS });
        const planned = (rows as { rows?: number | string }[])[0]?.rows;
        const line =
          planned === undefined || planned === null ? undefined : previewLine(statement, index, Number(planned), true);
        if (line !== undefined) estimates.push(line);
      }
    } catch {
      return previewSkipped(reason);
    }
    return previewSkipped(reason, estimates);
  }

  async preview(
    plan: SqlPlan,
    options: { timeoutMs: number },
  ): Promise<readonly PreviewLine[] | PreviewSkipped | SqlFailure> {
    const blocker = await this.previewBlocker(plan).catch(
      (error: Error) => `the table cannot be checked (${error.message})`,
    );
    if (blocker !== undefined) return this.estimate(plan, blocker);
    const statements = plan.statements;
    const connection = await connectOrFail(this.label, () => this.connect());
    if (isSqlFailure(connection)) return connection;
    const lines: PreviewLine[] = [];
    // A preview is bounded like a run: a stalled connection must not hold the panel forever.
    // Closing it (and ending its server thread) rolls the preview's transaction back.
    let severed = false;
    let timer: NodeJS.Timeout | undefined;
    connection.on('error', () => {});
    const expired = new Promise<SqlFailure>((resolve) => {
      timer = setTimeout(() => {
        severed = true;
        connection.destroy();
        void this.endThread(connection.threadId);
        resolve(
          sqlFailure(
            'sql-timeout',
            `the preview got no reply within ${options.timeoutMs + STALL_GRACE_MS} ms (the connection stalled); it changed nothing`,
          ),
        );
      }, options.timeoutMs + STALL_GRACE_MS);
    });
    const work = (async (): Promise<readonly PreviewLine[] | SqlFailure> => {
      try {
        await this.timeoutSetting(connection, options.timeoutMs);
        await query(
          connection,
          `SET SESSION innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(options.timeoutMs / 1000))}`,
        );
        await query(connection, 'START TRANSACTION');
        for (const [index, statement] of statements.entries()) {
          const result = await query(connection, statement.text);
          const affected = (result as ResultSetHeader).affectedRows;
          const line = typeof affected === 'number' ? previewLine(statement, index, affected) : undefined;
          if (line !== undefined) lines.push(line);
        }
        return lines;
      } catch (error) {
        return mysqlFailure(error, undefined, options.timeoutMs, undefined);
      }
    })();
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
      if (!severed) await query(connection, 'ROLLBACK').catch(() => {});
      connection.destroy();
    }
  }

  async describeSchema(table?: string): Promise<SchemaDescription | SqlFailure> {
    const connection = await connectOrFail(this.label, () => this.connect());
    if (isSqlFailure(connection)) return connection;
    // Bounded as a whole, its connection's errors caught: on a stalled connection each catalog
    // query waited out its own timeout and the ROLLBACK after it hung, so describe_schema (which
    // runs unasked) held the turn for good.
    connection.on('error', () => {});
    let severed = false;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<SqlFailure>((resolve) => {
      timer = setTimeout(() => {
        severed = true;
        connection.destroy();
        resolve(
          sqlFailure(
            'sql-connection-failed',
            `describing the schema got no reply within ${SCHEMA_TIMEOUT_MS} ms (the connection stalled); it only reads, so nothing was changed`,
          ),
        );
      }, SCHEMA_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.describeOn(connection, table), expired]);
    } finally {
      clearTimeout(timer);
      if (severed) connection.destroy();
      else {
        const ended = await Promise.race([
          query(connection, 'ROLLBACK').then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STALL_GRACE_MS)),
        ]);
        if (ended) connection.release();
        else connection.destroy();
      }
    }
  }

  private async describeOn(
    connection: PoolConnection,
    table: string | undefined,
  ): Promise<SchemaDescription | SqlFailure> {
    try {
      await query(connection, 'START TRANSACTION READ ONLY');
      const relations = (await query(
        connection,
        `SELECT TABLE_NAME AS name, TABLE_TYPE AS type, TABLE_ROWS AS estimate FROM information_schema.TABLES
          WHERE TABLE_SCHEMA = DATABASE() AND (? IS NULL OR LOWER(TABLE_NAME) = LOWER(?)) ORDER BY TABLE_NAME`,
        [table ?? null, table ?? null],
      )) as { name: string; type: string; estimate: number | null }[];
      if (table !== undefined && relations.length === 0)
        return sqlFailure('sql-missing-table', `no table or view named ${table}`);
      const tables: TableDescription[] = [];
      for (const relation of relations) {
        const columns = (await query(
          connection,
          `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE = 'YES' AS nullable, COLUMN_KEY = 'PRI' AS pk
             FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
          [relation.name],
        )) as { name: string; type: string; nullable: number; pk: number }[];
        const keys = (await query(
          connection,
          `SELECT COLUMN_NAME AS col, REFERENCED_TABLE_NAME AS refTable, REFERENCED_COLUMN_NAME AS refColumn FROM information_schema.KEY_COLUMN_USAGE
            WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL`,
          [relation.name],
        )) as { col: string; refTable: string; refColumn: string }[];
        const indexes = (await query(
          connection,
          `SELECT INDEX_NAME AS name, NON_UNIQUE = 0 AS isUnique, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS cols FROM information_schema.STATISTICS
            WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY' GROUP BY INDEX_NAME, NON_UNIQUE ORDER BY INDEX_NAME`,
          [relation.name],
        )) as { name: string; isUnique: number; cols: string }[];
        tables.push({
          name: relation.name,
          kind: relation.type === 'VIEW' ? 'view' : 'table',
          rowEstimate: relation.estimate === null ? null : Number(relation.estimate),
          columns: columns.map((column) => ({
            name: column.name,
            type: column.type,
            nullable: Number(column.nullable) === 1,
            primaryKey: Number(column.pk) === 1,
          })),
          foreignKeys: keys.map((key) => ({ column: key.col, references: `${key.refTable}(${key.refColumn})` })),
          indexes: indexes.map((index) => ({
            name: index.name,
            unique: Number(index.isUnique) === 1,
            columns: index.cols.split(','),
          })),
        });
      }
      return { dialect: 'mysql', database: this.label, tables };
    } catch (error) {
      return mysqlFailure(error, undefined, 0, undefined);
    }
  }

  /**
   * Ends the pool within CLOSE_MS whatever the network does: calls still running are cancelled
   * (their connections severed when no reply comes), and connections still open after the bound
   * are destroyed — `pool.end()` alone waited for a call on a stalled connection, so exit hung.
   */
  async close(): Promise<void> {
    this.closing.abort();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), CLOSE_MS);
    });
    const ended = await Promise.race([
      this.pool
        .promise()
        .end()
        .catch(() => 'ended' as const),
      bound,
    ]);
    clearTimeout(timer);
    if (ended === 'late') {
      for (const connection of (
        this.pool as unknown as { _allConnections?: { toArray?(): { destroy(): void }[] } }
      )._allConnections?.toArray?.() ?? [])
        connection.destroy();
    }
  }
}

/**
 * The bounds of one run on its own connection. mysql2 tells a lost connection to the
 * connection, not to the query it was running (which then never settles): every step races the
 * connection's failure. A timeout or a cancel sends KILL QUERY (on another connection); when the
 * run's own connection stays silent after it (a stalled network carries no reply), it is closed.
 */
function watchMysqlRun(
  connection: PoolConnection,
  options: { timeoutMs: number; signal: AbortSignal },
  killQuery: () => void,
) {
  let stopped: 'timeout' | 'cancelled' | undefined;
  // Set when the connection itself failed or stalled: then no reply tells what the server did.
  let lost: Error | undefined;
  let failRun: (error: Error) => void = () => {};
  const guard = new Promise<never>((_, reject) => {
    failRun = reject;
  });
  guard.catch(() => {});
  const onConnectionError = (error: Error) => {
    lost ??= error;
    failRun(lost);
  };
  const onConnectionEnd = () => onConnectionError(new Error('the server closed the connection'));
  connection.on('error', onConnectionError);
  connection.on('end', onConnectionEnd);
  let severTimer: NodeJS.Timeout | undefined;
  const stop = (why: 'timeout' | 'cancelled') => {
    stopped ??= why;
    killQuery();
    severTimer ??= setTimeout(() => {
      onConnectionError(
        new Error(
          `no reply ${STALL_GRACE_MS} ms after the statement was ${why === 'timeout' ? 'timed out' : 'cancelled'}: the connection stalled`,
        ),
      );
      connection.destroy();
    }, STALL_GRACE_MS);
  };
  // The server's own limit first; KILL QUERY a moment later for what it does not cover.
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs + 250);
  const onAbort = () => stop('cancelled');
  options.signal.addEventListener('abort', onAbort, { once: true });
  return {
    step: <T>(promise: Promise<T>): Promise<T> => Promise.race([promise, guard]),
    stop,
    stopped: () => stopped,
    lost: () => lost,
    dispose() {
      clearTimeout(timer);
      clearTimeout(severTimer);
      options.signal.removeEventListener('abort', onAbort);
      connection.off('error', onConnectionError);
      connection.off('end', onConnectionEnd);
      // A late error of a connection being discarded must not crash the process.
      connection.on('error', () => {});
    },
  };
}

/** One query; mysql2's own `timeout` closes a connection that stays silent (a stalled network). */
function query(connection: Connection, sql: string, values: unknown[] = []): Promise<unknown> {
  return new Promise((resolve, reject) =>
    connection.query({ sql, values, timeout: CATALOG_TIMEOUT_MS }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

/** Rows are counted as they arrive; only the first are kept, so memory stays flat. */
function streamStatement(
  connection: Connection,
  statement: PlannedStatement,
  maxRows: number,
): Promise<StatementResult> {
  const { text: sql, normalized } = statement;
  return new Promise((resolve, reject) => {
    let fields: FieldPacket[] | undefined;
    const rows: unknown[][] = [];
    let total = 0;
    let affected: number | null = null;
    const running = connection.query({ sql, rowsAsArray: true });
    running.on('fields', (received: FieldPacket[]) => {
      fields = received;
    });
    running.on('result', (row: unknown) => {
      if (fields === undefined) {
        affected = (row as ResultSetHeader).affectedRows ?? null;
        return;
      }
      total++;
      if (rows.length < maxRows) rows.push(row as unknown[]);
    });
    running.on('error', reject);
    running.on('end', () => {
      const columns = (fields ?? []).map((field) => ({ name: field.name, type: typeName(field.columnType) }));
      resolve(
        fields === undefined
          ? { statement: normalized, columns: [], rows: [], truncated: false, affectedRows: affected }
          : { statement: normalized, columns, rows, truncated: total > maxRows, totalRows: total, affectedRows: null },
      );
    });
  });
}

function typeName(code: number | undefined): string | null {
  return code === undefined ? null : (MYSQL_TYPES[code] ?? null);
}
const MYSQL_TYPES: Record<number, string> = {
  0: 'decimal',
  1: 'tinyint',
  2: 'smallint',
  3: 'int',
  4: 'float',
  5: 'double',
  7: 'timestamp',
  8: 'bigint',
  9: 'mediumint',
  10: 'date',
  11: 'time',
  12: 'datetime',
  13: 'year',
  15: 'varchar',
  16: 'bit',
  245: 'json',
  246: 'decimal',
  252: 'blob',
  253: 'varchar',
  254: 'char',
};

/** Why the first connection failed, in words; never the password. */
function connectFailure(error: unknown, database: string | undefined, sslMode: string): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running and listening there?)';
    case 'ENOTFOUND':
      return 'no such host';
    case 'ER_BAD_DB_ERROR':
      return `there is no database ${database ?? ''}`;
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return `the server does not support TLS, and ssl-mode ${sslMode} does not allow a plaintext connection`;
    default:
      return (error as Error).message;
  }
}
