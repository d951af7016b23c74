import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parse } from 'pg-connection-string';
import { type ConventionContext, fill, redactUrl, type Settings, shortPath } from './connection-settings.js';
import { parseServiceFile, readIfPresent } from './option-files.js';
import { passwordFromPgpass } from './pgpass.js';
import { type SqlFailure, sqlFailure } from './sql-results.js';

/**
 * libpq's connection keywords riskgate acts on, with the environment variable that supplies each
 * when neither the connection string nor the service names it (libpq's own order: the string,
 * then the service file, then the environment, then the defaults).
 */
export const PG_KEYWORDS: Readonly<Record<string, string | undefined>> = {
  host: 'PGHOST',
  hostaddr: 'PGHOSTADDR',
  port: 'PGPORT',
  dbname: 'PGDATABASE',
  user: 'PGUSER',
  password: 'PGPASSWORD',
  passfile: 'PGPASSFILE',
  service: 'PGSERVICE',
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  application_name: 'PGAPPNAME',
  options: 'PGOPTIONS',
};

/** The variables whose presence alone makes `riskgate sql` (without --db) open PostgreSQL. */
export const PG_ENVIRONMENT = [
  ...Object.values(PG_KEYWORDS).filter((name): name is string => name !== undefined),
  'PGSERVICEFILE',
];

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;

function failure(message: string): SqlFailure {
  return sqlFailure('sql-connection-failed', message);
}

/** `host=db user=ada dbname='my shop'` as libpq reads it; a clear error when malformed. */
export function parseKeywordString(text: string): Map<string, string> | SqlFailure {
  const pairs = new Map<string, string>();
  const pattern = /\s*([a-z_]+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|([^\s']*))/giy;
  let consumed = 0;
  for (let match = pattern.exec(text); match !== null && match[0] !== ''; match = pattern.exec(text)) {
    pairs.set(match[1]!.toLowerCase(), match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? ''));
    consumed = pattern.lastIndex;
  }
  // Where it stopped, never what is there: the rest may be a password's value.
  if (text.slice(consumed).trim() !== '')
    return failure(
      `cannot read the connection string at character ${consumed + 1}${pairs.size === 0 ? '' : ` (after ${[...pairs.keys()].at(-1)}=…)`}: expected key=value pairs, as libpq takes them, a value with spaces or quotes in '…'`,
    );
  return pairs;
}

/** A postgres:// URL through pg-connection-string, its query keywords checked as libpq checks them. */
function parseUrl(url: string): Map<string, string> | SqlFailure {
  const [base, query = ''] = url.split(/\?(.*)/s, 2) as [string, string?];
  const pairs = new Map<string, string>();
  // The query is read here, not by pg-connection-string: it would read certificate files itself and
  // give sslmode node-pg's meaning (with a warning on stderr), where riskgate gives it libpq's.
  for (const [key, value] of new URLSearchParams(query)) pairs.set(key === 'database' ? 'dbname' : key, value);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(base);
  } catch {
    return failure(`not a PostgreSQL URL: ${redactUrl(url)} (expected postgres://user@host:port/database)`);
  }
  const fromUrl: [string, string | null | undefined][] = [
    ['host', parsed.host],
    ['port', parsed.port],
    ['dbname', parsed.database],
    ['user', parsed.user],
    ['password', parsed.password],
  ];
  for (const [key, value] of fromUrl) if (value !== null && value !== undefined && value !== '') pairs.set(key, value);
  return pairs;
}

/** The target as a transcript may keep it: the password left out (the conventions supply it again). */
export function withoutPassword(target: string): string {
  return target
    .replace(/(\/\/[^:/@]*):[^@]*@/, '$1@')
    .replace(/([?&])password=[^&]*&?/gi, '$1')
    .replace(/[?&]$/, '')
    .replace(/(^|\s)password\s*=\s*(?:'(?:[^'\\]|\\.)*'|\S*)/gi, '');
}

/** The connection string's own settings (a URL or keywords), unknown keywords refused as psql refuses them. */
function explicitSettings(target: string, context: ConventionContext): Settings | SqlFailure {
  const pairs = /^postgres(ql)?:\/\//i.test(target) ? parseUrl(target) : parseKeywordString(target);
  if (pairs instanceof Map === false) return pairs;
  const settings: Settings = new Map();
  for (const [key, value] of pairs) {
    if (!(key in PG_KEYWORDS)) return failure(`invalid connection option "${key}" in ${context.targetSource}`);
    // As libpq: an empty value (`host=`) leaves the setting to the service, the environment, the default.
    if (value !== '') settings.set(key, { value, source: context.targetSource });
  }
  return settings;
}

/** The service's settings: ~/.pg_service.conf (or PGSERVICEFILE), then PGSYSCONFDIR's, as libpq looks. */
function serviceSettings(settings: Settings, context: ConventionContext): SqlFailure | undefined {
  const service = settings.get('service');
  if (service === undefined) return undefined;
  const { env, home } = context;
  const files = [
    env.PGSERVICEFILE ?? join(home, '.pg_service.conf'),
    join(env.PGSYSCONFDIR ?? '/etc/postgresql-common', 'pg_service.conf'),
  ];
  for (const file of files) {
    const text = readIfPresent(file);
    if (text === undefined) continue;
    const sections = parseServiceFile(text, shortPath(file, home));
    if (typeof sections === 'string') return failure(sections);
    const section = sections.get(service.value);
    if (section === undefined) continue;
    const source = `service "${service.value}" in ${shortPath(file, home)}`;
    for (const [key, value] of section) {
      if (key === 'service') return failure(`nested service specifications are not supported (${source})`);
      if (!(key in PG_KEYWORDS)) return failure(`invalid connection option "${key}" in ${source}`);
      fill(settings, key, value, source);
    }
    return undefined;
  }
  return failure(
    `definition of service "${service.value}" not found (looked in ${files.map((file) => shortPath(file, home)).join(' and ')})`,
  );
}

/**
 * Every setting of a PostgreSQL connection, each with its source, filled as psql fills it: the
 * connection string (URL or keywords), the service, the PG* variables, ~/.pgpass for a password,
 * then the defaults. `ignored` says why a password file was not used (for doctor).
 */
export function resolvePgSettings(
  target: string,
  context: ConventionContext,
): { settings: Settings; ignored?: string } | SqlFailure {
  const settings = explicitSettings(target, context);
  if (!(settings instanceof Map)) return settings;
  const { env } = context;
  fill(settings, 'service', env.PGSERVICE, 'PGSERVICE');
  const service = serviceSettings(settings, context);
  if (service !== undefined) return service;
  for (const [key, variable] of Object.entries(PG_KEYWORDS))
    if (variable !== undefined && env[variable] !== undefined && env[variable] !== '')
      fill(settings, key, env[variable], variable);
  fill(settings, 'user', osUser(), 'the operating-system user');
  fill(settings, 'host', 'localhost', 'default');
  fill(settings, 'port', '5432', 'default');
  fill(settings, 'dbname', settings.get('user')!.value, 'default (the user name)');
  const sslmode = settings.get('sslmode')?.value;
  if (sslmode !== undefined && !(SSL_MODES as readonly string[]).includes(sslmode))
    return failure(`invalid sslmode value: "${sslmode}" (one of ${SSL_MODES.join(', ')})`);
  fill(settings, 'sslmode', settings.get('host')!.value.startsWith('/') ? 'disable' : 'prefer', 'default');
  if (settings.has('password')) return { settings };
  const passfile = settings.get('passfile')?.value ?? join(context.home, '.pgpass');
  const found = passwordFromPgpass(passfile, {
    host: settings.get('host')!.value,
    port: settings.get('port')!.value,
    database: settings.get('dbname')!.value,
    user: settings.get('user')!.value,
  });
  if (found !== undefined && 'password' in found)
    fill(settings, 'password', found.password, shortPath(passfile, context.home));
  return found !== undefined && 'ignored' in found ? { settings, ignored: found.ignored } : { settings };
}

/** As libpq: the operating-system user (not $USER), which a container may not have a name for. */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'postgres';
  }
}
