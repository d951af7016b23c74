import { type ConventionContext, conventionContext, describeSettings } from './connection-settings.js';
import { resolveMysqlSettings } from './mysql-settings.js';
import { resolvePgSettings } from './pg-settings.js';
import { isSqlFailure } from './sql-connection.js';
import type { SqlFailure } from './sql-results.js';

/**
 * For `riskgate doctor`: each setting a connection would use and where it came from (--db,
 * DATABASE_URL, a PG* variable, a service file, ~/.pgpass, ~/.my.cnf, default), a password only as
 * "set". Nothing is opened.
 */
export function describeConnectionSettings(
  target: string,
  given: Partial<ConventionContext> = {},
): readonly string[] | SqlFailure {
  const context = conventionContext(given);
  if (/^(mysql|mariadb):\/\//i.test(target)) {
    const settings = resolveMysqlSettings(target, context);
    return isSqlFailure(settings) ? settings : describeSettings(settings);
  }
  if (/^\s*[a-z_]+\s*=/i.test(target) || /^postgres(ql)?:\/\//i.test(target)) {
    const resolved = resolvePgSettings(target, context);
    if (isSqlFailure(resolved)) return resolved;
    const lines = describeSettings(resolved.settings);
    return resolved.ignored === undefined ? lines : [...lines, `${resolved.ignored}: not used, as psql`];
  }
  return [`file: ${target}`];
}
