import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessAndRun,
  chooseDatabase,
  describeConnectionSettings,
  isSqlFailure,
  openSqlConnection,
} from '../src/index.js';
import { ADMIN_URL } from './helpers.js';

/**
 * Which PostgreSQL riskgate opens, and with what, from the conventions alone (DATABASE_URL, PG*
 * variables, service files), each row compared with what psql does in the same environment
 * (a temporary HOME, nothing else of this process's environment).
 */
const shared = new URL(ADMIN_URL);
const host = shared.hostname;
const port = shared.port || '5432';
const user = decodeURIComponent(shared.username);
let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'riskgate-home-'));
  writeFileSync(
    join(home, '.pg_service.conf'),
    `# services\n[shop]\nhost=${host}\nport=${port}\nuser=${user}\ndbname=postgres\n\n[broken]\nhost=${host}\nfrobnicate=1\n`,
  );
  mkdirSync(join(home, 'etc'));
  writeFileSync(
    join(home, 'etc', 'pg_service.conf'),
    `[system]\nhost=${host}\nport=${port}\nuser=${user}\ndbname=template1\n`,
  );
  writeFileSync(join(home, 'other.conf'), `[elsewhere]\nhost=${host}\nport=${port}\nuser=${user}\ndbname=template1\n`);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function environment(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, PGSYSCONFDIR: join(home, 'etc'), ...extra };
}

const QUERY = 'SELECT current_database(), current_user, inet_server_port()';

/** What psql reaches: "database|user|port", or "none". */
function psql(args: string[], env: Record<string, string>): string {
  const result = spawnSync('psql', ['-X', '-At', ...args, '-c', QUERY], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'none';
}

async function riskgate(target: string | undefined, env: Record<string, string>): Promise<string> {
  const chosen = chooseDatabase({ flag: target }, { env, home });
  if (isSqlFailure(chosen) || chosen.target === undefined) return 'none';
  const opened = await openSqlConnection(chosen.target, { conventions: chosen.conventions });
  if (isSqlFailure(opened)) return 'none';
  const result = await assessAndRun(opened, QUERY, {
    readOnly: true,
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    maxRows: 1,
  });
  await opened.close();
  return isSqlFailure(result) ? 'none' : result.statements[0]!.rows[0]!.join('|');
}

describe('only the conventions, as psql reads them', () => {
  it.each<[string, Record<string, string>, string[], string | undefined, string]>([
    [
      'only DATABASE_URL',
      { DATABASE_URL: `postgres://${user}@${host}:${port}/postgres` },
      [`postgres://${user}@${host}:${port}/postgres`],
      undefined,
      'postgres',
    ],
    [
      'only DATABASE_URL, postgresql://',
      { DATABASE_URL: `postgresql://${user}@${host}:${port}/template1` },
      [`postgresql://${user}@${host}:${port}/template1`],
      undefined,
      'template1',
    ],
    [
      'only PG* variables',
      { PGHOST: host, PGPORT: port, PGUSER: user, PGDATABASE: 'template1' },
      [],
      undefined,
      'template1',
    ],
    [
      'only PGHOST and PGUSER: the database is the user name',
      { PGHOST: host, PGUSER: 'postgres', PGPORT: port },
      [],
      undefined,
      'postgres',
    ],
    ['only a service name (~/.pg_service.conf)', { PGSERVICE: 'shop' }, [], undefined, 'postgres'],
    ['a service in PGSYSCONFDIR/pg_service.conf', { PGSERVICE: 'system' }, [], undefined, 'template1'],
    ['a service in PGSERVICEFILE', { PGSERVICE: 'elsewhere', PGSERVICEFILE: '' }, [], undefined, 'template1'],
    [
      '--db postgres:///template1 takes the host and user from PG*',
      { PGHOST: host, PGPORT: port, PGUSER: user },
      ['postgres:///template1'],
      'postgres:///template1',
      'template1',
    ],
    ['--db service=shop', {}, ['service=shop'], 'service=shop', 'postgres'],
    [
      'the connection string wins over the service and the environment',
      { PGSERVICE: 'shop', PGDATABASE: 'nope' },
      ['dbname=template1'],
      'dbname=template1',
      'template1',
    ],
    ['a missing service', { PGSERVICE: 'nope' }, [], undefined, 'none'],
    ['a service file with an unknown keyword', { PGSERVICE: 'broken' }, [], undefined, 'none'],
    ['an unknown sslmode', { PGHOST: host, PGPORT: port, PGUSER: user, PGSSLMODE: 'sometimes' }, [], undefined, 'none'],
    [
      'an unknown keyword',
      {},
      [`host=${host} port=${port} frobnicate=1`],
      `host=${host} port=${port} frobnicate=1`,
      'none',
    ],
    [
      'a malformed keyword string',
      {},
      [`host=${host} dbname='unterminated`],
      `host=${host} dbname='unterminated`,
      'none',
    ],
    ['a port that is not a number', { PGHOST: host, PGUSER: user, PGPORT: 'fifty' }, [], undefined, 'none'],
  ])('%s', async (_name, variables, psqlArgs, flag, database) => {
    const env = environment({
      ...variables,
      ...(variables.PGSERVICEFILE === '' ? { PGSERVICEFILE: join(home, 'other.conf') } : {}),
    });
    const reached = psql(psqlArgs.length === 0 ? [] : ['-d', psqlArgs[0]!], env);
    expect(reached.split('|')[0]).toBe(database);
    expect(await riskgate(flag, env)).toBe(reached);
  });

  it.each([
    [{ PGSERVICE: 'nope' }, undefined, /definition of service "nope" not found/],
    [
      { PGSERVICE: 'broken' },
      undefined,
      /invalid connection option "frobnicate" in service "broken" in ~\/\.pg_service\.conf/,
    ],
    [{ PGSSLMODE: 'sometimes' }, undefined, /invalid sslmode value: "sometimes"/],
    [{}, 'host=db frobnicate=1', /invalid connection option "frobnicate" in --db/],
    [{}, 'postgres://db/x?frobnicate=1', /invalid connection option "frobnicate"/],
    [{}, "host=db dbname='x", /cannot read the connection string at character 16 \(after dbname=…\)/],
    [{}, 'postgres://ada:Pg-Url-Secret@[bad/x', /not a PostgreSQL URL: postgres:\/\/ada:\*\*\*@/],
    [{ DATABASE_URL: 'mongodb://db/x' }, undefined, /DATABASE_URL is a mongodb:\/\/ URL/],
    [
      { PGHOST: 'db', PGCONNECT_TIMEOUT: 'soon' },
      undefined,
      /invalid integer value "soon" for connection option "connect_timeout"/,
    ],
  ])('a clear error for %o %s', async (variables, flag, message) => {
    const env = environment(variables);
    const chosen = chooseDatabase({ flag }, { env, home });
    const opened = isSqlFailure(chosen)
      ? chosen
      : await openSqlConnection(chosen.target!, { conventions: chosen.conventions });
    expect(isSqlFailure(opened) && opened.message).toMatch(message);
  });
});

describe('a password in a malformed connection string stays out of the error', () => {
  it.each([
    "host=db password='Kw-Secret-1",
    "host=db password=Kw-Secret-1'",
    "host=db password=ab'Kw-Secret-1",
    "host=db password = 'Kw-Secret-1\\'",
    "password='Kw-Secret-1 host=db",
    "user=ada password='it''s Kw-Secret-1'",
  ])('%s', async (target) => {
    const opened = await openSqlConnection(target, { conventions: { env: environment({}), home } });
    expect(isSqlFailure(opened) && opened.message).toMatch(/cannot read the connection string at character \d+/);
    expect(isSqlFailure(opened) && opened.message).not.toContain('Kw-Secret');
  });
});

describe('which database, and where each setting came from', () => {
  it.each<[string, Record<string, string>, string | undefined, string | undefined, string]>([
    ['--db wins over everything', { DATABASE_URL: 'postgres://a/b', PGHOST: 'h' }, 'x.sqlite', 'x.sqlite', '--db'],
    [
      'DATABASE_URL before PG*',
      { DATABASE_URL: 'mysql://u@h/d', PGHOST: 'h' },
      undefined,
      'mysql://u@h/d',
      'DATABASE_URL',
    ],
    ['DATABASE_URL as sqlite:///', { DATABASE_URL: 'sqlite:///tmp/x.db' }, undefined, '/tmp/x.db', 'DATABASE_URL'],
    ['DATABASE_URL as file:', { DATABASE_URL: 'file:x.db' }, undefined, 'x.db', 'DATABASE_URL'],
    ['DATABASE_URL as a path', { DATABASE_URL: './x.db' }, undefined, './x.db', 'DATABASE_URL'],
    ['an empty DATABASE_URL is not set', { DATABASE_URL: '', PGUSER: 'u' }, undefined, 'postgres://', 'PGUSER'],
    ['PG* variables are named', { PGHOST: 'h', PGDATABASE: 'd' }, undefined, 'postgres://', 'PGHOST, PGDATABASE'],
    ['MYSQL_HOST', { MYSQL_HOST: 'h' }, undefined, 'mysql://', 'MYSQL_HOST'],
    ['nothing: the demo', {}, undefined, undefined, 'demo'],
  ])('%s', (_name, variables, flag, target, source) => {
    const chosen = chooseDatabase({ flag }, { env: environment(variables), home });
    expect(isSqlFailure(chosen) ? chosen : { target: chosen.target, source: chosen.source }).toEqual({
      target,
      source,
    });
  });

  it('the configuration comes after --db and before the environment', () => {
    const env = environment({ DATABASE_URL: 'postgres://a/b' });
    const chosen = chooseDatabase({ configured: 'shop.sqlite' }, { env, home });
    expect(!isSqlFailure(chosen) && chosen.source).toBe('RISKGATE_DATABASE or sql.database');
  });

  it('doctor sees each setting with its source, and a password only as "set"', () => {
    const env = environment({ PGSERVICE: 'shop', PGPASSWORD: 'Sekret-77', PGAPPNAME: 'nightly' });
    const lines = describeConnectionSettings('postgres:///template1', { env, home, targetSource: '--db' });
    expect(lines).toEqual(
      expect.arrayContaining([
        'dbname: template1 (from --db)',
        `host: ${host} (from service "shop" in ~/.pg_service.conf)`,
        'password: set (from PGPASSWORD)',
        'application_name: nightly (from PGAPPNAME)',
        'sslmode: prefer (from default)',
      ]),
    );
    expect(JSON.stringify(lines)).not.toContain('Sekret-77');
  });
});
