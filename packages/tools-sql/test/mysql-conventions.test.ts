import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { type Certificates, makeCertificates, type OwnServer, startTlsMariadb } from './tls-servers.js';

/**
 * MySQL's conventions: ~/.my.cnf, MYSQL_* variables and ssl-mode. Against the shared MariaDB
 * (127.0.0.1:3306, root without a password, no TLS) each row is compared with the mariadb client
 * in the same environment (a temporary HOME); against a TLS MariaDB of the test's own, Ssl_cipher
 * says whether the connection is encrypted.
 */
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'riskgate-home-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function withOptionFile(text: string | undefined): Record<string, string> {
  if (text === undefined) rmSync(join(home, '.my.cnf'), { force: true });
  else writeFileSync(join(home, '.my.cnf'), text, { mode: 0o600 });
  return { PATH: process.env.PATH ?? '', HOME: home, USER: 'nobody-here' };
}

const QUERY = 'SELECT DATABASE(), CURRENT_USER()';

function client(env: Record<string, string>): string {
  const result = spawnSync('mariadb', ['-N', '-B', '-e', QUERY], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace('\t', '|') : 'none';
}

async function riskgate(flag: string | undefined, env: Record<string, string>, query = QUERY) {
  const chosen = chooseDatabase({ flag }, { env, home });
  if (isSqlFailure(chosen)) return { reached: 'none', message: chosen.message };
  if (chosen.target === undefined) return { reached: 'demo' };
  const opened = await openSqlConnection(chosen.target, { conventions: chosen.conventions });
  if (isSqlFailure(opened)) return { reached: 'none', message: opened.message };
  const result = await assessAndRun(opened, query, {
    readOnly: true,
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    maxRows: 1,
  });
  await opened.close();
  return {
    reached: isSqlFailure(result)
      ? 'none'
      : result.statements[0]!.rows[0]!.map((cell) => (cell === null ? 'NULL' : String(cell))).join('|'),
  };
}

describe('~/.my.cnf and MYSQL_* as the mariadb client reads them', () => {
  it.each<[string, string | undefined, Record<string, string>, string]>([
    ['only ~/.my.cnf [client]', '[client]\nhost=127.0.0.1\nuser=root\ndatabase=test\n', {}, 'test|root@127.0.0.1'],
    [
      'only ~/.my.cnf [mysql], underscores and quotes',
      '[mysql]\nhost = 127.0.0.1\nuser = \'root\'\ndatabase="test"\n',
      {},
      'test|root@127.0.0.1',
    ],
    [
      '~/.my.cnf names the host, MYSQL_TCP_PORT the port',
      '[client]\nhost=127.0.0.1\nuser=root\n',
      { MYSQL_TCP_PORT: '3306' },
      'NULL|root@127.0.0.1',
    ],
    [
      'only MYSQL_HOST (the user from USER)',
      undefined,
      { MYSQL_HOST: '127.0.0.1', USER: 'root' },
      'NULL|root@127.0.0.1',
    ],
    [
      'a wrong MYSQL_PWD is refused',
      undefined,
      { MYSQL_HOST: '127.0.0.1', USER: 'root', MYSQL_PWD: 'Wrong-My-55' },
      'none',
    ],
    [
      'the password in ~/.my.cnf wins over MYSQL_PWD',
      '[client]\nhost=127.0.0.1\nuser=root\npassword=\n',
      { MYSQL_PWD: 'Wrong-My-55' },
      'NULL|root@127.0.0.1',
    ],
    ['a ~/.my.cnf with only [mysqld] names no client database', '[mysqld]\nport=3306\n', {}, 'demo'],
  ])('%s', async (_name, file, variables, expected) => {
    const env = { ...withOptionFile(file), ...variables };
    const { reached, message } = await riskgate(undefined, env);
    expect(reached).toBe(expected);
    if (expected !== 'demo') expect(client(env).replace('NULL', 'NULL')).toBe(expected === 'none' ? 'none' : expected);
    if (message !== undefined) expect(message).not.toContain('Wrong-My-55');
  });

  it.each<[string, string | undefined, Record<string, string>, string[]]>([
    ['only MYSQL_UNIX_PORT: the socket', undefined, { MYSQL_UNIX_PORT: '/run/mysqld/mysqld.sock', USER: 'root' }, []],
    [
      'host localhost goes through the socket an option file names',
      'mysql://root@localhost/test',
      {},
      ['-hlocalhost', 'test'],
    ],
  ])('%s, as the client', async (_name, flag, variables, clientArgs) => {
    const env = { ...withOptionFile(undefined), ...variables };
    const { reached } = await riskgate(flag, env);
    const result = spawnSync('mariadb', ['-uroot', ...clientArgs, '-N', '-B', '-e', QUERY], { env, encoding: 'utf8' });
    expect(result.stdout.trim().replace('\t', '|')).toMatch(/\|root@localhost$/);
    expect(reached).toBe(result.stdout.trim().replace('\t', '|'));
  });

  it.each<[string, string, RegExp | undefined]>([
    ['PREFERRED connects to a server without TLS', 'mysql://root@127.0.0.1:3306/test?ssl-mode=PREFERRED', undefined],
    ['sslmode= is read as ssl-mode', 'mysql://root@127.0.0.1:3306/test?sslmode=preferred', undefined],
    [
      'REQUIRED never falls back to plaintext',
      'mysql://root@127.0.0.1:3306/test?ssl-mode=REQUIRED',
      /does not support TLS, and ssl-mode REQUIRED does not allow a plaintext connection/,
    ],
    ['VERIFY_CA without a CA', 'mysql://root@127.0.0.1:3306/test?ssl-mode=VERIFY_CA', /needs a CA certificate/],
    ['an unknown ssl-mode', 'mysql://root@127.0.0.1:3306/test?ssl-mode=SOMETIMES', /unknown ssl-mode "SOMETIMES"/],
    ['an unknown option is never dropped', 'mysql://root@127.0.0.1:3306/test?ssl=true', /unknown option "ssl"/],
    [
      'a malformed URL, its password hidden',
      'mysql://root:Url-Secret-8@[bad/test',
      /not a MySQL URL: mysql:\/\/root:\*\*\*@/,
    ],
    [
      'a malformed URL whose password holds / and :, hidden whole',
      'mysql://root:Url-Secret-8/x:y@[bad/test',
      /not a MySQL URL: mysql:\/\/root:\*\*\*@\[bad/,
    ],
    [
      'a password in the URL stays out of the message',
      'mysql://root:Url-Secret-8@127.0.0.1:3306/test',
      /Access denied/,
    ],
  ])('%s', async (_name, url, error) => {
    const { reached, message } = await riskgate(url, withOptionFile(undefined));
    if (error === undefined) expect(reached).toBe('test|root@127.0.0.1');
    else expect(message).toMatch(error);
    expect(message ?? '').not.toContain('Url-Secret-8');
  });

  it('ssl-mode=REQUIRED in ~/.my.cnf fails against a server without TLS', async () => {
    const env = withOptionFile('[client]\nhost=127.0.0.1\nuser=root\nssl-mode=REQUIRED\n');
    const { reached, message } = await riskgate(undefined, env);
    expect([reached, message]).toEqual(['none', expect.stringMatching(/does not support TLS/)]);
  });

  it("MariaDB's bare `ssl` is PREFERRED, as its client still connects without TLS", async () => {
    const env = withOptionFile('[client]\nhost=127.0.0.1\nuser=root\nssl\n');
    expect(client(env)).toBe('NULL|root@127.0.0.1');
    expect((await riskgate(undefined, env)).reached).toBe('NULL|root@127.0.0.1');
  });

  it('doctor names ~/.my.cnf and MYSQL_PWD, never the password', () => {
    const env = { ...withOptionFile('[client]\nhost=127.0.0.1\nuser=root\n'), MYSQL_PWD: 'Pwd-Secret-3' };
    const lines = describeConnectionSettings('mysql://', { env, home, targetSource: '~/.my.cnf' });
    expect(lines).toEqual(
      expect.arrayContaining([
        'host: 127.0.0.1 (from ~/.my.cnf)',
        'password: set (from MYSQL_PWD)',
        'ssl-mode: PREFERRED (from default)',
      ]),
    );
    expect(JSON.stringify(lines)).not.toContain('Pwd-Secret-3');
  });
});

describe('ssl-mode against a TLS MariaDB', () => {
  const PASSWORD = 'My-Tls-Pass-21';
  let certificates: Certificates;
  let server: OwnServer;
  beforeAll(async () => {
    certificates = makeCertificates();
    server = await startTlsMariadb(certificates, PASSWORD);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(certificates.directory, { recursive: true, force: true });
  });

  const CIPHER = "SHOW STATUS LIKE 'Ssl_cipher'";
  it.each<[string, string, 'tls' | 'plain' | 'none']>([
    ['DISABLED', 'ssl-mode=DISABLED', 'plain'],
    ['PREFERRED', 'ssl-mode=PREFERRED', 'tls'],
    ['no ssl-mode (PREFERRED, as the mysql client)', '', 'tls'],
    ['REQUIRED', 'ssl-mode=REQUIRED', 'tls'],
    ['VERIFY_CA with the CA', 'ssl-mode=VERIFY_CA&ssl-ca={ca}', 'tls'],
    ['a CA alone means VERIFY_CA', 'ssl-ca={ca}', 'tls'],
    ['VERIFY_CA with a CA that did not sign it', 'ssl-mode=VERIFY_CA&ssl-ca={other}', 'none'],
    [
      'VERIFY_IDENTITY on an address: refused, never weakened to VERIFY_CA',
      'ssl-mode=VERIFY_IDENTITY&ssl-ca={ca}',
      'none',
    ],
  ])('%s', async (_name, query, expected) => {
    const options = query
      .replace('{ca}', encodeURIComponent(certificates.ca))
      .replace('{other}', encodeURIComponent(certificates.otherCa));
    const url = `mysql://ada:${PASSWORD}@127.0.0.1:${server.port}/shop${options === '' ? '' : `?${options}`}`;
    const { reached, message } = await riskgate(url, withOptionFile(undefined), CIPHER);
    const outcome = reached === 'none' ? 'none' : /^Ssl_cipher\|.+/.test(reached) ? 'tls' : 'plain';
    expect({ outcome, reached }).toEqual({ outcome: expected, reached: expect.any(String) });
    expect(message ?? '').not.toContain(PASSWORD);
  });

  it('the mariadb client agrees: the CA verifies, another CA does not', () => {
    const base = ['--no-defaults', '-h127.0.0.1', `-P${server.port}`, '-uada', `-p${PASSWORD}`, '-N', '-e', CIPHER];
    const run = (ca: string) =>
      spawnSync('mariadb', [...base, `--ssl-ca=${ca}`, '--ssl-verify-server-cert'], { encoding: 'utf8' });
    // The certificate names localhost only: the client, like VERIFY_IDENTITY, refuses 127.0.0.1 by name.
    expect(run(certificates.otherCa).status).not.toBe(0);
    const direct = spawnSync('mariadb', [...base, `--ssl-ca=${certificates.ca}`], { encoding: 'utf8' });
    expect(direct.stdout).toMatch(/Ssl_cipher\t\S+/);
  });
});
