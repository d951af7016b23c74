import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Servers of riskgate's own for the TLS tests, in temporary directories on free ports: a
 * PostgreSQL with ssl=on and password authentication, a MariaDB with TLS. Certificates are made
 * with openssl: a CA, and a server certificate for "localhost" only (so verify-full against
 * 127.0.0.1 fails where verify-ca passes), plus a second CA that signed nothing here.
 */
export interface Certificates {
  readonly directory: string;
  readonly ca: string;
  readonly otherCa: string;
  readonly cert: string;
  readonly key: string;
  /** A client certificate for the role certuser, signed by the CA (its key private, as libpq wants it). */
  readonly clientCert: string;
  readonly clientKey: string;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

export function makeCertificates(): Certificates {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-tls-'));
  chmodSync(directory, 0o755);
  const ca = (name: string) =>
    openssl(
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`].concat([
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.crt`,
      ]),
      directory,
    );
  ca('ca');
  ca('other-ca');
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr'],
    directory,
  );
  writeFileSync(join(directory, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2'].concat([
      '-extfile',
      'san.ext',
      '-out',
      'server.crt',
    ]),
    directory,
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=certuser', '-keyout', 'client.key', '-out', 'client.csr'],
    directory,
  );
  openssl(
    ['x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2'].concat([
      '-out',
      'client.crt',
    ]),
    directory,
  );
  for (const file of readdirSync(directory)) chmodSync(join(directory, file), 0o644);
  chmodSync(join(directory, 'client.key'), 0o600);
  return {
    directory,
    ca: join(directory, 'ca.crt'),
    otherCa: join(directory, 'other-ca.crt'),
    cert: join(directory, 'server.crt'),
    key: join(directory, 'server.key'),
    clientCert: join(directory, 'client.crt'),
    clientKey: join(directory, 'client.key'),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface OwnServer {
  readonly port: number;
  stop(): Promise<void>;
}

const PG_BIN = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  return join('/usr/lib/postgresql', versions.at(-1)!, 'bin');
})();

/** PostgreSQL with ssl=on, scram passwords on TCP (role ada, password given), database shop. */
export async function startTlsPostgres(certificates: Certificates, password: string): Promise<OwnServer> {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-pgtls-'));
  const data = join(directory, 'data');
  mkdirSync(data);
  const postgres = {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  };
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  for (const path of [directory, data]) if (asPostgres.length > 0) chownSync(path, postgres.uid, postgres.gid);
  chmodSync(data, 0o700);
  const run = (command: string[]) => {
    const [file, ...args] = [...asPostgres, ...command];
    execFileSync(file!, args, { stdio: 'pipe' });
  };
  run([join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // The server key must belong to the server's user and be private.
  const key = join(directory, 'server.key');
  writeFileSync(key, execFileSync('cat', [certificates.key]));
  chmodSync(key, 0o600);
  if (asPostgres.length > 0) chownSync(key, postgres.uid, postgres.gid);
  const port = await freePort();
  writeFileSync(
    join(data, 'postgresql.auto.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${directory}'`,
      'ssl = on',
      `ssl_cert_file = '${certificates.cert}'`,
      `ssl_key_file = '${key}'`,
      `ssl_ca_file = '${certificates.ca}'`,
      'fsync = off',
    ].join('\n'),
  );
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'local all all trust\nhostssl shop certuser 127.0.0.1/32 cert\nhost all all 127.0.0.1/32 scram-sha-256\n',
  );
  run([join(PG_BIN, 'pg_ctl'), '-D', data, '-w', '-l', join(directory, 'log'), 'start']);
  const stop = async () => {
    spawnSync(asPostgres[0] ?? 'env', [
      ...asPostgres.slice(1),
      join(PG_BIN, 'pg_ctl'),
      '-D',
      data,
      '-m',
      'immediate',
      '-w',
      'stop',
    ]);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const psql = ['psql', '-X', '-h', directory, '-p', String(port), '-U', 'postgres', '-d', 'postgres'];
    run([...psql, '-c', `CREATE ROLE ada LOGIN PASSWORD '${password}'`, '-c', 'CREATE DATABASE shop OWNER ada']);
    run([...psql, '-c', 'CREATE ROLE certuser LOGIN']);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

/** MariaDB with TLS (the test's certificates), user ada with the password given on TCP, database shop. */
export async function startTlsMariadb(
  certificates: Certificates,
  password: string,
): Promise<OwnServer & { socket: string }> {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-mytls-'));
  const data = join(directory, 'data');
  const socket = join(directory, 'mysqld.sock');
  execFileSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
    { stdio: 'pipe' },
  );
  const port = await freePort();
  const server = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${socket}`,
      `--pid-file=${join(directory, 'pid')}`,
      '--user=root',
      `--ssl-ca=${certificates.ca}`,
      `--ssl-cert=${certificates.cert}`,
      `--ssl-key=${certificates.key}`,
      '--innodb-buffer-pool-size=16M',
      '--skip-log-bin',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 60_000;
  // Ready when the client can run a statement over the socket (a condition, not a fixed sleep).
  while (spawnSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'SELECT 1']).status !== 0) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the TLS MariaDB did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const sql = `CREATE DATABASE shop; CREATE USER ada@'%' IDENTIFIED BY '${password}'; GRANT ALL ON shop.* TO ada@'%';`;
  execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', sql], { stdio: 'pipe' });
  return {
    port,
    socket,
    stop: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
