import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import type pg from 'pg';
import { type ConventionContext, type Settings, shortPath } from './connection-settings.js';
import { isSqlFailure } from './sql-connection.js';
import { type SqlFailure, sqlFailure } from './sql-results.js';

/**
 * libpq's sslmode on node-pg. node-pg knows only "TLS or not" (and, through
 * pg-connection-string, treats prefer/require as verify-full), so each mode becomes the list of
 * attempts libpq makes, in its order:
 * - disable: plain. allow: plain, then TLS. prefer (libpq's default): TLS, then plain.
 * - require: TLS without verification — unless a root certificate is there (sslrootcert or
 *   ~/.postgresql/root.crt), when libpq verifies the CA, and so does riskgate.
 * - verify-ca: TLS, the chain checked against the root certificate. verify-full: and the host name.
 * A Unix socket never uses TLS (as libpq). REQUIRE and stronger never fall back to plaintext.
 */
export interface PgConnectPlan {
  readonly attempts: readonly pg.ClientConfig[];
  /** postgres://user@host:port/dbname, never a password. */
  readonly label: string;
}

function failure(message: string): SqlFailure {
  return sqlFailure('sql-connection-failed', message);
}

function readPem(path: string, what: string, home: string): string | SqlFailure {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return failure(
      `could not read ${what} "${shortPath(path, home)}": ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

/** The TLS options of the mode, or why it cannot be used (libpq's own reasons). */
function tlsOptions(settings: Settings, context: ConventionContext): ConnectionOptions | SqlFailure {
  const mode = settings.get('sslmode')!.value;
  const { home } = context;
  const given = settings.get('sslrootcert')?.value;
  const rootFile = given ?? join(home, '.postgresql', 'root.crt');
  const options: { -readonly [K in keyof ConnectionOptions]: ConnectionOptions[K] } = {};
  if (given === 'system') {
    // libpq 16: the system's roots are only meaningful with the host name checked.
    if (mode !== 'verify-full')
      return failure(`weak sslmode "${mode}" may not be used with sslrootcert=system (use "verify-full")`);
  } else if (given !== undefined || existsSync(rootFile)) {
    const ca = readPem(rootFile, 'root certificate file', home);
    if (typeof ca !== 'string') return ca;
    options.ca = ca;
  } else if (mode === 'verify-ca' || mode === 'verify-full') {
    return failure(
      `root certificate file "${shortPath(rootFile, home)}" does not exist; either provide the file (sslrootcert), use the system's trusted roots with sslrootcert=system, or change sslmode to disable server certificate verification`,
    );
  }
  for (const [key, fallback, what] of [
    ['sslcert', 'postgresql.crt', 'certificate file'],
    ['sslkey', 'postgresql.key', 'private key file'],
  ] as const) {
    const path = settings.get(key)?.value ?? join(home, '.postgresql', fallback);
    if (settings.get(key) === undefined && !existsSync(path)) continue;
    const pem = readPem(path, what, home);
    if (typeof pem !== 'string') return pem;
    options[key === 'sslcert' ? 'cert' : 'key'] = pem;
  }
  // libpq verifies whenever it has a root certificate, whatever the mode.
  options.rejectUnauthorized = options.ca !== undefined || given === 'system';
  if (mode !== 'verify-full') options.checkServerIdentity = () => undefined;
  const host = settings.get('host')!.value;
  if (isIP(host) === 0 && !host.startsWith('/')) options.servername = host;
  return options;
}

/** What riskgate tries, in order, to connect as psql would with these settings. */
export function pgConnectPlan(settings: Settings, context: ConventionContext): PgConnectPlan | SqlFailure {
  const get = (key: string) => settings.get(key)?.value;
  const host = get('host')!;
  const mode = get('sslmode')!;
  const timeout = Number(get('connect_timeout') ?? '10');
  if (!Number.isInteger(timeout) || timeout < 0)
    return failure(`invalid integer value "${get('connect_timeout')}" for connection option "connect_timeout"`);
  const port = Number(get('port'));
  if (!Number.isInteger(port) || port < 1 || port > 65535) return failure(`invalid port number: "${get('port')}"`);
  const password = get('password');
  const base: pg.ClientConfig = {
    // hostaddr is where to connect; host stays the name the certificate is checked against.
    host: get('hostaddr') ?? host,
    port,
    user: get('user')!,
    database: get('dbname')!,
    // A function, so that node-pg never falls back to its own ~/.pgpass reader (warnings on stderr).
    password:
      password === undefined
        ? () => {
            throw new Error('the server asks for a password and none was given (URL, PGPASSWORD, service, ~/.pgpass)');
          }
        : password,
    // libpq: 0 waits for ever; below 2 s counts as 2 s.
    ...(timeout === 0 ? {} : { connectionTimeoutMillis: Math.max(2, timeout) * 1000 }),
    ...(get('application_name') === undefined ? {} : { application_name: get('application_name')! }),
    ...(get('options') === undefined ? {} : { options: get('options')! }),
  };
  const shownHost = host.startsWith('/') ? encodeURIComponent(host) : host.includes(':') ? `[${host}]` : host;
  const label = `postgres://${encodeURIComponent(base.user!)}@${shownHost}:${port}/${encodeURIComponent(base.database!)}`;
  if (host.startsWith('/') || mode === 'disable') return { attempts: [{ ...base, ssl: false }], label };
  const tls = tlsOptions(settings, context);
  if (isSqlFailure(tls)) return tls;
  const secure = { ...base, ssl: tls };
  const plain = { ...base, ssl: false };
  const attempts = { allow: [plain, secure], prefer: [secure, plain] }[mode as 'allow' | 'prefer'] ?? [secure];
  return { attempts, label };
}
