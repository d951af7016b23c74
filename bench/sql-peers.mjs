#!/usr/bin/env node
// riskgate's SQL paths against the engines' own clients (psql, mariadb, sqlite3) on the same
// 1M-row tables, in one run, as ratios. Prints Markdown lines for BENCHMARKS.md (and JSON on
// stderr). Usage: node bench/sql-peers.mjs [rows]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');
const rows = Number(process.argv[2] ?? 1_000_000);
const runs = 5;
const pgUser = process.env.PGUSER ?? userInfo().username;
const database = `riskgate_bench_${process.pid}`;
const pgUrl = `postgres://${pgUser}@127.0.0.1:5432/${database}`;
const myUrl = `mysql://root@127.0.0.1:3306/${database}`;
const directory = mkdtempSync(join(tmpdir(), 'riskgate-bench-'));
const sqliteFile = join(directory, 'big.sqlite');

const psql = (db, sql) =>
  execFileSync('psql', ['-h', '127.0.0.1', '-U', pgUser, '-d', db, '-qAtX', '-c', sql], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
const maria = (sql) =>
  execFileSync('mariadb', ['-h127.0.0.1', '-uroot', '-e', sql], { stdio: ['ignore', 'ignore', 'inherit'] });

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
function timePeer(command, args) {
  const samples = [];
  for (let index = 0; index < runs; index++) {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
    if (result.status !== 0) throw new Error(`${command} exited ${result.status}`);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}
function ours(target, mode, sql) {
  const samples = [];
  let last;
  for (let index = 0; index < runs; index++) {
    const out = execFileSync(tsx, [join(root, 'bench/sql-peers.bench.ts'), target, mode, sql ?? ''], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    last = JSON.parse(out.trim().split('\n').at(-1));
    samples.push(last);
  }
  const growth = samples.map((sample) => sample.rssGrowthMb).filter((value) => typeof value === 'number');
  return {
    ...last,
    ms: median(samples.map((sample) => sample.ms)),
    rssGrowthMb: growth.length === 0 ? null : Math.max(...growth),
  };
}

console.error(`bench: creating ${rows.toLocaleString('en-US')}-row tables`);
psql('postgres', `DROP DATABASE IF EXISTS ${database}`);
psql('postgres', `CREATE DATABASE ${database}`);
psql(
  database,
  `CREATE TABLE big AS SELECT g AS id, g % 1000 AS grp, md5(g::text) AS payload FROM generate_series(1, ${rows}) g; ANALYZE big`,
);
maria(`DROP DATABASE IF EXISTS ${database}; CREATE DATABASE ${database}; USE ${database}; CREATE TABLE big (id INT PRIMARY KEY, grp INT, payload CHAR(32)) ENGINE=InnoDB;
  INSERT INTO big SELECT seq, seq % 1000, MD5(seq) FROM seq_1_to_${rows}`);
execFileSync('sqlite3', [
  sqliteFile,
  `CREATE TABLE big (id INTEGER PRIMARY KEY, grp INT, payload TEXT);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT ${rows}) INSERT INTO big SELECT i, i % 1000, hex(randomblob(16)) FROM c;`,
]);

const GROUP = 'SELECT grp, count(*), sum(id), max(payload) FROM big GROUP BY grp';
const ALL = 'SELECT * FROM big';
const results = [];
const measure = (engine, what, peerName, peer, target, mode, sql) => {
  console.error(`bench: ${engine} ${what}`);
  const peerMs = peer === undefined ? undefined : timePeer(...peer);
  const mine = ours(target, mode, sql);
  results.push({ engine, what, peerName, peerMs, ...mine });
};
measure(
  'PostgreSQL',
  `GROUP BY over ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'psql',
  ['psql', ['-h', '127.0.0.1', '-U', pgUser, '-d', database, '-qAtX', '-c', GROUP]],
  pgUrl,
  'read',
  GROUP,
);
measure(
  'PostgreSQL',
  `SELECT * of ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'psql',
  ['psql', ['-h', '127.0.0.1', '-U', pgUser, '-d', database, '-qAtX', '-c', ALL]],
  pgUrl,
  'read',
  ALL,
);
measure(
  'PostgreSQL',
  `SELECT * … FOR UPDATE of ${rows.toLocaleString('en-US')} rows (confirmed)`,
  'psql',
  ['psql', ['-h', '127.0.0.1', '-U', pgUser, '-d', database, '-qAtX', '-c', `${ALL} FOR UPDATE`]],
  pgUrl,
  'confirmed',
  `${ALL} FOR UPDATE`,
);
measure(
  'MariaDB',
  `GROUP BY over ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'mariadb',
  ['mariadb', ['-h127.0.0.1', '-uroot', database, '-e', GROUP]],
  myUrl,
  'read',
  GROUP,
);
measure(
  'MariaDB',
  `SELECT * of ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'mariadb',
  ['mariadb', ['-h127.0.0.1', '-uroot', '--quick', database, '-e', ALL]],
  myUrl,
  'read',
  ALL,
);
measure(
  'SQLite',
  `GROUP BY over ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'sqlite3',
  ['sqlite3', [sqliteFile, GROUP]],
  sqliteFile,
  'read',
  GROUP,
);
measure(
  'SQLite',
  `SELECT * of ${rows.toLocaleString('en-US')} rows (whitelisted read)`,
  'sqlite3',
  ['sqlite3', [sqliteFile, ALL]],
  sqliteFile,
  'read',
  ALL,
);
measure('SQLite', 'open + describe_schema (start-up)', undefined, undefined, sqliteFile, 'describe');

psql('postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
maria(`DROP DATABASE IF EXISTS ${database}`);
rmSync(directory, { recursive: true, force: true });

console.error(JSON.stringify(results));
const fixed = (value, digits = 1) => (value === undefined || value === null ? '' : value.toFixed(digits));
console.log(
  '| engine | statement | peer | peer | riskgate | ratio | rows kept / total | RSS growth (whole process, drivers loaded) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const result of results) {
  const ratio = result.peerMs === undefined ? '' : `${fixed(result.ms / result.peerMs, 2)}×`;
  const kept =
    result.rows === undefined
      ? `${result.tables} tables`
      : `${result.rows} / ${result.total === null ? '?' : result.total.toLocaleString('en-US')}`;
  const peerMs = result.peerMs === undefined ? '' : `${fixed(result.peerMs)} ms`;
  const rss = result.rssGrowthMb === undefined || result.rssGrowthMb === null ? '' : `${fixed(result.rssGrowthMb)} MB`;
  console.log(
    `| ${result.engine} | ${result.what} | ${result.peerName ?? ''} | ${peerMs} | ${fixed(result.ms)} ms | ${ratio} | ${kept} | ${rss} |`,
  );
}
