import type { ConventionContext } from './connection-settings.js';
import { loadWithDriver } from './drivers.js';
import { isSqlFailure, type SqlConnection } from './sql-connection.js';
import type { SqlFailure } from './sql-results.js';

// The opener lives apart from sql-connection.ts, which the connections import: with it there,
// sql-connection.ts and the connection files imported each other (a runtime cycle).
/**
 * A `postgres://` URL or libpq keyword string opens PostgreSQL, `mysql://` or `mariadb://`
 * MySQL/MariaDB, anything else is a SQLite file. What a URL leaves out is filled as psql or mysql
 * fill it (docs/sql.md, "Connecting"); `conventions` replaces the process's environment and home.
 */
export async function openSqlConnection(
  target: string,
  options: { create?: boolean; conventions?: Partial<ConventionContext> } = {},
): Promise<SqlConnection | SqlFailure> {
  if (/^(mysql|mariadb):\/\//i.test(target)) {
    // mysql-connection.js only imports mysql2's types: the driver itself is loaded by open().
    const module = await loadWithDriver('mysql', () => import('./mysql-connection.js'));
    return isSqlFailure(module) ? module : module.MysqlConnection.open(target, options.conventions);
  }
  // A libpq keyword string (`host=… dbname=…`), as psql takes it, or a URL.
  if (/^\s*[a-z_]+\s*=/i.test(target) || /^postgres(ql)?:\/\//i.test(target)) {
    const module = await loadWithDriver('postgres', () => import('./postgres-connection.js'));
    return isSqlFailure(module) ? module : module.PostgresConnection.open(target, options.conventions);
  }
  const module = await loadWithDriver('sqlite', () => import('./sqlite-connection.js'));
  return isSqlFailure(module) ? module : module.SqliteConnection.open(target, options);
}
