import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assessAndRun, isSqlFailure, openSqlConnection } from '../src/index.js';
import { ADMIN_URL } from './helpers.js';
import { type Certificates, makeCertificates, type OwnServer, startTlsPostgres } from './tls-servers.js';

/**
 * sslmode with psql's meaning: every mode against a TLS PostgreSQL of the test's own (ssl=on,
 * scram passwords) and the shared one (ssl=off), each row run by psql with the same settings and
 * by riskgate, which must end the same way: a plain connection, a TLS one, or none.
 */
const PASSWORD = 'pg-Secret-4417';
let certificates: Certificates;
let server: OwnServer;
let home: string;
const shared = new URL(ADMIN_URL);

beforeAll(async () => {
  certificates = makeCertificates();
  server = await startTlsPostgres(certificates, PASSWORD);
  home = mkdtempSync(join(tmpdir(), 'riskgate-home-'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(certificates.directory, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

type Outcome = 'plain' | 'tls' | 'none';
const QUERY = 'SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()';

function environment(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, PGCONNECT_TIMEOUT: '10', ...extra };
}

function psqlOutcome(conninfo: string, env: Record<string, string>): Outcome {
  const result = spawnSync('psql', ['-X', '-At', '-d', conninfo, '-c', QUERY], { env, encoding: 'utf8' });
  if (result.status !== 0) return 'none';
  return result.stdout.trim() === 'true' ? 'tls' : 'plain';
}

async function riskgateOutcome(
  target: string,
  env: Record<string, string>,
): Promise<{ outcome: Outcome; message?: string }> {
  const opened = await openSqlConnection(target, { conventions: { env, home } });
  if (isSqlFailure(opened)) return { outcome: 'none', message: opened.message };
  const result = await assessAndRun(opened, QUERY, {
    readOnly: true,
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    maxRows: 1,
  });
  await opened.close();
  if (isSqlFailure(result)) throw new Error(result.message);
  return { outcome: result.statements[0]!.rows[0]![0] === 'true' ? 'tls' : 'plain' };
}

const own =
  (host: string, extra = '') =>
  () =>
    `host=${host} port=${server.port} user=ada dbname=shop ${extra.replace('{ca}', certificates.ca).replace('{other}', certificates.otherCa)}`;
const plainServer =
  (extra = '') =>
  () =>
    `host=${shared.hostname} port=${shared.port || 5432} user=${decodeURIComponent(shared.username)} dbname=postgres ${extra.replace('{ca}', certificates.ca)}`;

describe('sslmode as psql means it', () => {
  it.each<[string, () => string, Outcome]>([
    ['disable, TLS server', own('127.0.0.1', 'sslmode=disable'), 'plain'],
    ['allow, TLS server: plain first', own('127.0.0.1', 'sslmode=allow'), 'plain'],
    ['prefer, TLS server', own('127.0.0.1', 'sslmode=prefer'), 'tls'],
    ['no sslmode (libpq default prefer), TLS server', own('127.0.0.1'), 'tls'],
    ['require, TLS server: no verification', own('127.0.0.1', 'sslmode=require'), 'tls'],
    ['require with the right root certificate', own('127.0.0.1', 'sslmode=require sslrootcert={ca}'), 'tls'],
    [
      'require with a root certificate that did not sign it: verified, refused',
      own('127.0.0.1', 'sslmode=require sslrootcert={other}'),
      'none',
    ],
    [
      'prefer with a root certificate that did not sign it: plain after the failed TLS',
      own('127.0.0.1', 'sslmode=prefer sslrootcert={other}'),
      'plain',
    ],
    ['verify-ca with the root certificate', own('127.0.0.1', 'sslmode=verify-ca sslrootcert={ca}'), 'tls'],
    ['verify-ca without a root certificate', own('127.0.0.1', 'sslmode=verify-ca'), 'none'],
    ['verify-full, the name in the certificate', own('localhost', 'sslmode=verify-full sslrootcert={ca}'), 'tls'],
    [
      'verify-full, an address the certificate does not name',
      own('127.0.0.1', 'sslmode=verify-full sslrootcert={ca}'),
      'none',
    ],
    ['disable, plain server', plainServer('sslmode=disable'), 'plain'],
    ['allow, plain server', plainServer('sslmode=allow'), 'plain'],
    ['prefer, plain server: falls back as psql does', plainServer('sslmode=prefer'), 'plain'],
    ['no sslmode, plain server', plainServer(), 'plain'],
    ['require, plain server', plainServer('sslmode=require'), 'none'],
    ['verify-ca, plain server', plainServer('sslmode=verify-ca sslrootcert={ca}'), 'none'],
    ['verify-full, plain server', plainServer('sslmode=verify-full sslrootcert={ca}'), 'none'],
  ])('%s', async (_name, conninfo, expected) => {
    const env = environment({ PGPASSWORD: PASSWORD });
    expect(psqlOutcome(conninfo(), env)).toBe(expected);
    const { outcome, message } = await riskgateOutcome(conninfo(), env);
    expect({ outcome, message: outcome === 'none' ? expect.any(String) : undefined }).toEqual({
      outcome: expected,
      message: expected === 'none' ? expect.any(String) : undefined,
    });
    if (message !== undefined) expect(message).not.toContain(PASSWORD);
  });

  it('the same modes from PGSSLMODE and PGSSLROOTCERT, and from a URL', async () => {
    const env = environment({ PGPASSWORD: PASSWORD, PGSSLMODE: 'verify-ca', PGSSLROOTCERT: certificates.ca });
    expect(psqlOutcome(own('127.0.0.1')(), env)).toBe('tls');
    expect((await riskgateOutcome(own('127.0.0.1')(), env)).outcome).toBe('tls');
    const url = `postgresql://ada@127.0.0.1:${server.port}/shop?sslmode=verify-full&sslrootcert=${encodeURIComponent(certificates.otherCa)}`;
    expect(psqlOutcome(url, environment({ PGPASSWORD: PASSWORD }))).toBe('none');
    expect((await riskgateOutcome(url, environment({ PGPASSWORD: PASSWORD }))).outcome).toBe('none');
  });

  it.each<[string, string, Outcome]>([
    [
      'a client certificate (sslcert, sslkey) logs in where the server asks for one',
      'sslmode=require sslcert={cert} sslkey={key}',
      'tls',
    ],
    ['without it, the same login is refused', 'sslmode=require', 'none'],
  ])('%s', async (_name, extra, expected) => {
    const conninfo = `host=127.0.0.1 port=${server.port} user=certuser dbname=shop ${extra
      .replace('{cert}', certificates.clientCert)
      .replace('{key}', certificates.clientKey)}`;
    const env = environment();
    expect(psqlOutcome(conninfo, env)).toBe(expected);
    expect((await riskgateOutcome(conninfo, env)).outcome).toBe(expected);
  });

  it('~/.postgresql/root.crt is the root certificate when none is named, as in libpq', async () => {
    const withRoot = mkdtempSync(join(tmpdir(), 'riskgate-home-'));
    mkdirSync(join(withRoot, '.postgresql'));
    writeFileSync(join(withRoot, '.postgresql', 'root.crt'), spawnSync('cat', [certificates.ca]).stdout);
    const env = { ...environment({ PGPASSWORD: PASSWORD }), HOME: withRoot };
    expect(psqlOutcome(own('127.0.0.1', 'sslmode=verify-ca')(), env)).toBe('tls');
    const opened = await openSqlConnection(own('127.0.0.1', 'sslmode=verify-ca')(), {
      conventions: { env, home: withRoot },
    });
    expect(isSqlFailure(opened) ? opened.message : 'opened').toBe('opened');
    if (!isSqlFailure(opened)) await opened.close();
    rmSync(withRoot, { recursive: true, force: true });
  });
});

describe('passwords from ~/.pgpass and the environment', () => {
  it.each<[string, number, string, Outcome]>([
    ['a private ~/.pgpass is used', 0o600, `127.0.0.1:*:shop:ada:${PASSWORD}`, 'tls'],
    [
      'a wildcard line after one with an escaped colon matches',
      0o600,
      `db\\:x:*:*:ada:nope\n*:*:*:ada:${PASSWORD}`,
      'tls',
    ],
    ['an escaped colon is part of the field, not a separator', 0o600, `127.0.0.1\\:*:shop:ada:${PASSWORD}`, 'none'],
    ['a ~/.pgpass others can read is ignored, as psql ignores it', 0o644, `127.0.0.1:*:shop:ada:${PASSWORD}`, 'none'],
    ['a line for another database does not match', 0o600, `127.0.0.1:*:other:ada:${PASSWORD}`, 'none'],
  ])('%s', async (_name, mode, line, expected) => {
    const passHome = mkdtempSync(join(tmpdir(), 'riskgate-home-'));
    writeFileSync(join(passHome, '.pgpass'), `# comment\n${line}\n`);
    chmodSync(join(passHome, '.pgpass'), mode);
    const env = { ...environment(), HOME: passHome };
    const written = vi.spyOn(process.stderr, 'write');
    const warned = vi.spyOn(process, 'emitWarning');
    try {
      expect(psqlOutcome(own('127.0.0.1')(), env)).toBe(expected);
      const opened = await openSqlConnection(own('127.0.0.1')(), { conventions: { env, home: passHome } });
      expect(isSqlFailure(opened) ? 'none' : 'tls').toBe(expected);
      if (isSqlFailure(opened)) {
        expect(opened.message).not.toContain(PASSWORD);
        if (mode === 0o644) expect(opened.message).toMatch(/group or world access.*not used/);
      } else await opened.close();
      // Nothing on stderr: node-pg's own ~/.pgpass reader would warn there, under the TUI.
      expect(written).not.toHaveBeenCalled();
      expect(warned).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
      warned.mockRestore();
      rmSync(passHome, { recursive: true, force: true });
    }
  });

  it('a wrong password is refused without the password in the message', async () => {
    const wrong = 'Wrong-Pass-9931';
    for (const target of [
      `postgres://ada:${wrong}@127.0.0.1:${server.port}/shop`,
      `host=127.0.0.1 port=${server.port} user=ada dbname=shop password=${wrong}`,
    ]) {
      const opened = await openSqlConnection(target, { conventions: { env: environment(), home } });
      const message = isSqlFailure(opened) ? opened.message : 'opened';
      expect(message).toMatch(/password authentication failed/);
      expect(message).not.toContain(wrong);
    }
    const fromEnvironment = await openSqlConnection(own('127.0.0.1')(), {
      conventions: { env: environment({ PGPASSWORD: wrong }), home },
    });
    expect(isSqlFailure(fromEnvironment) && fromEnvironment.message).not.toContain(wrong);
  });
});
