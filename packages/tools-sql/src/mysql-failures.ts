import { type SqlFailure, sqlFailure } from './sql-results.js';

// What a MySQL/MariaDB error means, in the failure codes every dialect shares.

/** The connection itself failed (dropped, reset, killed) rather than the database answering. */
export function isConnectionLoss(error: unknown): boolean {
  const { code, errno, fatal } = error as { code?: string; errno?: number; fatal?: boolean };
  // 1927 ER_CONNECTION_KILLED (MariaDB), 2013/2006 lost / gone away.
  return (
    fatal === true ||
    errno === 1927 ||
    errno === 2013 ||
    errno === 2006 ||
    /PROTOCOL_CONNECTION_LOST|ECONNRESET|EPIPE|ETIMEDOUT|PROTOCOL_SEQUENCE_TIMEOUT/.test(code ?? '')
  );
}

export function mysqlFailure(
  error: unknown,
  stopped: 'timeout' | 'cancelled' | undefined,
  timeoutMs: number,
  statementIndex: number | undefined,
): SqlFailure {
  const database = error as { code?: string; errno?: number; message?: string };
  const message = database.message ?? String(error);
  const prefix = statementIndex === undefined ? '' : `statement ${statementIndex}: `;
  const extra = statementIndex === undefined ? {} : { statementIndex };
  // 1969 (MariaDB max_statement_time), 3024 (MySQL max_execution_time), 1317 (KILL QUERY).
  if (stopped === 'cancelled')
    return sqlFailure('sql-cancelled', `${prefix}the query was cancelled on the server`, extra);
  if (stopped === 'timeout' || database.errno === 1969 || database.errno === 3024 || database.errno === 1317) {
    return sqlFailure(
      'sql-timeout',
      `${prefix}the statement ran longer than ${timeoutMs} ms and was stopped on the server`,
      extra,
    );
  }
  switch (database.code) {
    case 'ER_PARSE_ERROR':
      return sqlFailure('sql-syntax-error', prefix + message, extra);
    case 'ER_NO_SUCH_TABLE':
    case 'ER_BAD_TABLE_ERROR':
      return sqlFailure('sql-missing-table', prefix + message, extra);
    case 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION':
      return sqlFailure('sql-read-only', `${prefix}refused in the read-only transaction: ${message}`, extra);
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_SPECIFIC_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_ERROR':
      return sqlFailure('sql-permission-denied', prefix + message, extra);
    case 'ER_LOCK_WAIT_TIMEOUT':
      return sqlFailure('sql-timeout', `${prefix}waited too long for a lock: ${message}`, extra);
    default:
      if (/^ER_(DUP_ENTRY|NO_REFERENCED_ROW|ROW_IS_REFERENCED|BAD_NULL|CHECK_CONSTRAINT)/.test(database.code ?? ''))
        return sqlFailure('sql-constraint-violation', prefix + message, extra);
      if (/ECONNREFUSED|ECONNRESET|PROTOCOL_CONNECTION_LOST|ETIMEDOUT/.test(database.code ?? ''))
        return sqlFailure('sql-connection-failed', prefix + message, extra);
      return sqlFailure('sql-error', prefix + message, extra);
  }
}
