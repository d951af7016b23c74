import { type ConventionContext, conventionContext, shortPath } from './connection-settings.js';
import { clientOptions, MYSQL_ENVIRONMENT, mysqlOptionFiles } from './mysql-settings.js';
import { PG_ENVIRONMENT, withoutPassword } from './pg-settings.js';
import { type SqlFailure, sqlFailure } from './sql-results.js';

/**
 * Which database `riskgate sql` (and `riskgate mcp`, headless, doctor) opens, in this order:
 * 1. `--db` (or the database argument);
 * 2. riskgate's own configuration, `sql.database` (a riskgate setting names riskgate's database
 *    more surely than a variable every PostgreSQL tool reads);
 * 3. `DATABASE_URL` — postgres://, postgresql://, mysql://, mariadb://, or SQLite as `sqlite:` /
 *    `file:` / a path; any other scheme is an error, never the demo in its place;
 * 4. libpq's environment: any PG* variable psql reads (PGSERVICE, PGHOST, PGUSER, …) — psql would
 *    connect with them, so riskgate does;
 * 5. MySQL's: MYSQL_HOST, MYSQL_TCP_PORT, MYSQL_UNIX_PORT, MYSQL_PWD, or the person's own option
 *    file ($MYSQL_HOME/my.cnf, ~/.my.cnf) naming a host, socket, port, user or database in a
 *    client group (the system's /etc/mysql/my.cnf alone does not: a MariaDB install is not a wish);
 * 6. the embedded demo database.
 * The source is said on the status line and by doctor; the target of 4 and 5 is an empty URL
 * whose every part the conventions fill.
 */
export interface ChosenDatabase {
  /** What to open; undefined for the demo database. */
  readonly target: string | undefined;
  /** Where the choice came from, for people: "--db", "RISKGATE_DATABASE or sql.database", "DATABASE_URL", "PGHOST, PGUSER", "~/.my.cnf", "demo". */
  readonly source: string;
  /** The target as it may be shown or stored: its password left out. */
  readonly shown: string | undefined;
  readonly conventions: ConventionContext;
}

function chosen(target: string | undefined, source: string, given: Partial<ConventionContext>): ChosenDatabase {
  return {
    target,
    source,
    shown: target === undefined ? undefined : withoutPassword(target),
    conventions: conventionContext({ ...given, targetSource: source }),
  };
}

/** DATABASE_URL as riskgate opens it, or a clear error for a scheme it does not. */
export function fromDatabaseUrl(value: string): string | SqlFailure {
  if (/^(postgres(ql)?|mysql|mariadb):\/\//i.test(value)) return value;
  const sqlite = /^(?:sqlite3?|file):(?:\/\/)?(.+)$/i.exec(value);
  if (sqlite !== null) return sqlite[1]!;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  if (scheme !== undefined)
    return sqlFailure(
      'sql-connection-failed',
      `DATABASE_URL is a ${scheme}:// URL; riskgate opens postgres://, mysql://, mariadb:// and SQLite (sqlite:, file: or a path)`,
    );
  return value;
}

export function chooseDatabase(
  explicit: { flag?: string | undefined; configured?: string | undefined },
  given: Partial<ConventionContext> = {},
): ChosenDatabase | SqlFailure {
  if (explicit.flag !== undefined) return chosen(explicit.flag, '--db', given);
  if (explicit.configured !== undefined) return chosen(explicit.configured, 'RISKGATE_DATABASE or sql.database', given);
  const context = conventionContext(given);
  const { env } = context;
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    const target = fromDatabaseUrl(env.DATABASE_URL);
    return typeof target === 'string' ? chosen(target, 'DATABASE_URL', given) : target;
  }
  const pg = PG_ENVIRONMENT.filter((name) => env[name] !== undefined && env[name] !== '');
  if (pg.length > 0) return chosen('postgres://', pg.join(', '), given);
  const mysql = MYSQL_ENVIRONMENT.filter((name) => env[name] !== undefined);
  if (mysql.length > 0) return chosen('mysql://', mysql.join(', '), given);
  for (const { file, personal } of mysqlOptionFiles(context)) {
    if (!personal) continue;
    const options = clientOptions(file);
    if (['host', 'socket', 'port', 'user', 'database'].some((key) => options.has(key)))
      return chosen('mysql://', shortPath(file, context.home), given);
  }
  return chosen(undefined, 'demo', given);
}
