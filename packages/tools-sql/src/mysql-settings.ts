import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { PoolOptions } from 'mysql2';
import { type ConventionContext, fill, redactUrl, type Settings, shortPath } from './connection-settings.js';
import { parseMysqlOptionFile, readIfPresent } from './option-files.js';
import { type SqlFailure, sqlFailure } from './sql-results.js';

/**
 * A MySQL/MariaDB connection's settings filled as the mysql client fills them: the URL, then the
 * option files (later files win: /etc/my.cnf, /etc/mysql/my.cnf, $MYSQL_HOME/my.cnf, ~/.my.cnf;
 * the client's groups), then MYSQL_HOST, MYSQL_TCP_PORT, MYSQL_UNIX_PORT, MYSQL_PWD, then defaults.
 */
const GROUPS = ['client', 'client-server', 'client-mariadb', 'mysql', 'mariadb-client'];

/** What an option file or a URL may say, with the URL spellings each is known by. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  'ssl-mode': ['ssl-mode', 'sslmode', 'ssl_mode'],
  'ssl-ca': ['ssl-ca', 'sslca', 'ssl_ca'],
  'ssl-cert': ['ssl-cert', 'sslcert', 'ssl_cert'],
  'ssl-key': ['ssl-key', 'sslkey', 'ssl_key'],
  socket: ['socket'],
};

export const MYSQL_SSL_MODES = ['DISABLED', 'PREFERRED', 'REQUIRED', 'VERIFY_CA', 'VERIFY_IDENTITY'] as const;
type MysqlSslMode = (typeof MYSQL_SSL_MODES)[number];

/** The variables whose presence alone makes `riskgate sql` (without --db) open MySQL. */
export const MYSQL_ENVIRONMENT = ['MYSQL_HOST', 'MYSQL_TCP_PORT', 'MYSQL_UNIX_PORT', 'MYSQL_PWD'];

function failure(message: string): SqlFailure {
  return sqlFailure('sql-connection-failed', message);
}

/** The option files the client reads, in its order; `personal` are the person's own (which alone choose MySQL). */
export function mysqlOptionFiles(context: ConventionContext): { file: string; personal: boolean }[] {
  const { env, home } = context;
  return [
    { file: '/etc/my.cnf', personal: false },
    { file: '/etc/mysql/my.cnf', personal: false },
    ...(env.MYSQL_HOME === undefined ? [] : [{ file: join(env.MYSQL_HOME, 'my.cnf'), personal: true }]),
    { file: join(home, '.my.cnf'), personal: true },
  ];
}

/** The client groups' options of one file, the later group winning. */
export function clientOptions(file: string): Map<string, string> {
  const text = readIfPresent(file);
  const options = new Map<string, string>();
  if (text === undefined) return options;
  const sections = parseMysqlOptionFile(text);
  for (const group of GROUPS) for (const [key, value] of sections.get(group) ?? []) options.set(key, value);
  return options;
}

function urlSettings(target: string, context: ConventionContext): Settings | SqlFailure {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return failure(`not a MySQL URL: ${redactUrl(target)} (expected mysql://user[:password]@host[:port]/database)`);
  }
  const settings: Settings = new Map();
  const source = context.targetSource;
  fill(settings, 'host', url.hostname.replace(/^\[|\]$/g, '') || undefined, source);
  fill(settings, 'port', url.port || undefined, source);
  fill(settings, 'user', decodeURIComponent(url.username) || undefined, source);
  fill(settings, 'password', decodeURIComponent(url.password) || undefined, source);
  fill(settings, 'database', decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined, source);
  for (const [key, value] of url.searchParams) {
    const name = Object.entries(OPTIONS).find(([, spellings]) => spellings.includes(key.toLowerCase()))?.[0];
    // Never silently dropped: an option riskgate does not act on would leave the connection other than asked.
    if (name === undefined)
      return failure(`unknown option "${key}" in ${source} (riskgate knows ${Object.keys(OPTIONS).join(', ')})`);
    fill(settings, name, value, source);
  }
  return settings;
}

/** MariaDB's `ssl`/`skip-ssl`/`ssl-verify-server-cert` as MySQL's ssl-mode. */
function sslModeFromMariadb(options: Map<string, string>): string | undefined {
  if (options.has('ssl-mode')) return options.get('ssl-mode');
  if (options.has('skip-ssl') || options.get('ssl') === '0') return 'DISABLED';
  if (options.has('ssl-verify-server-cert')) return 'VERIFY_IDENTITY';
  // MariaDB's client with a bare `ssl` still connects to a server without TLS (tested): PREFERRED.
  if (options.has('ssl')) return 'PREFERRED';
  return undefined;
}

export function resolveMysqlSettings(target: string, context: ConventionContext): Settings | SqlFailure {
  const settings = urlSettings(target, context);
  if (!(settings instanceof Map)) return settings;
  const files = mysqlOptionFiles(context).reverse();
  for (const { file } of files) {
    const options = clientOptions(file);
    const source = shortPath(file, context.home);
    for (const key of ['host', 'port', 'socket', 'user', 'password', 'database', 'ssl-ca', 'ssl-cert', 'ssl-key'])
      fill(settings, key, options.get(key), source);
    fill(settings, 'ssl-mode', sslModeFromMariadb(options), source);
  }
  const { env } = context;
  fill(settings, 'host', env.MYSQL_HOST || undefined, 'MYSQL_HOST');
  fill(settings, 'port', env.MYSQL_TCP_PORT || undefined, 'MYSQL_TCP_PORT');
  fill(settings, 'socket', env.MYSQL_UNIX_PORT || undefined, 'MYSQL_UNIX_PORT');
  fill(settings, 'password', env.MYSQL_PWD, 'MYSQL_PWD');
  fill(settings, 'user', env.USER ?? safeUser(), 'the operating-system user');
  fill(settings, 'host', 'localhost', 'default');
  fill(settings, 'port', '3306', 'default');
  // A CA alone asks for it to be checked (MySQL's client does the same).
  fill(settings, 'ssl-mode', settings.has('ssl-ca') ? 'VERIFY_CA' : 'PREFERRED', 'default');
  const mode = settings.get('ssl-mode')!;
  const upper = mode.value.toUpperCase().replace('-', '_');
  if (!(MYSQL_SSL_MODES as readonly string[]).includes(upper))
    return failure(`unknown ssl-mode "${mode.value}" in ${mode.source} (one of ${MYSQL_SSL_MODES.join(', ')})`);
  settings.set('ssl-mode', { ...mode, value: upper });
  return settings;
}

function safeUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

function readPem(settings: Settings, key: string, home: string): string | undefined | SqlFailure {
  const path = settings.get(key)?.value;
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return failure(`cannot read ${key} "${shortPath(path, home)}": ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/**
 * mysql2's pool options for each attempt, in order: PREFERRED is TLS then plain (only when the
 * server says it has no TLS); REQUIRED and stronger are TLS alone and never fall back to plaintext.
 * A socket (host localhost or none, as the client) never uses TLS.
 */
export function mysqlAttempts(settings: Settings, context: ConventionContext): PoolOptions[] | SqlFailure {
  const get = (key: string) => settings.get(key)?.value;
  const port = Number(get('port'));
  if (!Number.isInteger(port) || port < 1 || port > 65535) return failure(`invalid port number: "${get('port')}"`);
  const socket = get('host') === 'localhost' ? get('socket') : undefined;
  const base: PoolOptions = {
    ...(socket === undefined ? { host: get('host')!, port } : { socketPath: socket }),
    ...(get('user') === undefined ? {} : { user: get('user')! }),
    password: get('password') ?? '',
    ...(get('database') === undefined ? {} : { database: get('database')! }),
  };
  const mode = get('ssl-mode') as MysqlSslMode;
  if (mode === 'DISABLED' || socket !== undefined) return [base];
  const pems: Record<string, string> = {};
  for (const [key, option] of [
    ['ssl-ca', 'ca'],
    ['ssl-cert', 'cert'],
    ['ssl-key', 'key'],
  ] as const) {
    const pem = readPem(settings, key, context.home);
    if (typeof pem === 'object') return pem;
    if (pem !== undefined) pems[option] = pem;
  }
  const verify = mode === 'VERIFY_CA' || mode === 'VERIFY_IDENTITY';
  if (verify && pems.ca === undefined) return failure(`ssl-mode ${mode} needs a CA certificate (ssl-ca)`);
  // mysql2 checks the certificate's names only for a host name, never for an address: refused
  // rather than quietly weakened to VERIFY_CA.
  if (mode === 'VERIFY_IDENTITY' && isIP(get('host')!) !== 0)
    return failure(
      `ssl-mode VERIFY_IDENTITY needs a host name, not an address (${get('host')}): the driver cannot check a certificate against an address; use the name the certificate is for, or VERIFY_CA`,
    );
  const ssl = { ...pems, rejectUnauthorized: verify, verifyIdentity: mode === 'VERIFY_IDENTITY' };
  return mode === 'PREFERRED' ? [{ ...base, ssl }, base] : [{ ...base, ssl }];
}
