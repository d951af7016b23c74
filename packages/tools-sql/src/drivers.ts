import { createRequire } from 'node:module';
import { type SqlFailure, sqlFailure } from './sql-results.js';

/**
 * The database drivers are optional peer dependencies: an app installs the one it talks to, and
 * a PostgreSQL-only app never compiles better-sqlite3. Each is loaded when a connection of its
 * kind is opened; a missing one is a clear failure naming the package to install.
 */
export const SQL_DRIVERS = {
  sqlite: { package: 'better-sqlite3', engine: 'SQLite' },
  postgres: { package: 'pg', engine: 'PostgreSQL' },
  mysql: { package: 'mysql2', engine: 'MySQL/MariaDB' },
} as const;

export type SqlDriverName = keyof typeof SQL_DRIVERS;

export function missingDriverMessage(driver: SqlDriverName): string {
  const { package: name, engine } = SQL_DRIVERS[driver];
  return `${engine} needs the "${name}" package, which is not installed; install it beside @riskgate/tools-sql: npm install ${name}`;
}

/** Node's error for an import of a package that is not installed, for this package only. */
function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = (error as Error).message;
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}

/**
 * Runs `load` (a dynamic import of the module that uses the driver) and turns "the driver is
 * not installed" into a SqlFailure; any other error is a fault and is thrown on.
 */
export async function loadWithDriver<Module>(
  driver: SqlDriverName,
  load: () => Promise<Module>,
): Promise<Module | SqlFailure> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, SQL_DRIVERS[driver].package))
      return sqlFailure('sql-driver-missing', missingDriverMessage(driver));
    throw error;
  }
}

/** The driver module itself, synchronously (better-sqlite3 is CommonJS); throws a clear Error when it is missing. */
export function requireDriver<Module>(driver: SqlDriverName): Module {
  const name = SQL_DRIVERS[driver].package;
  try {
    return createRequire(import.meta.url)(name) as Module;
  } catch (error) {
    if (isMissingPackage(error, name)) throw new Error(missingDriverMessage(driver));
    throw error;
  }
}
