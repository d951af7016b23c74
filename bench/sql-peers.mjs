#!/usr/bin/env node
// riskgate's SQL paths against the engines' own clients (psql, mariadb, sqlite3) on the same
// 1M-row tables, in one run, as ratios. Prints Markdown lines for BENCHMARKS.md (and JSON on
// stderr). Usage: node bench/sql-peers.mjs [rows] [--runs N] [--engines sqlite,postgres,mariadb]
// [--ours bench/sql-peers.bench.ts]. The peer and riskgate run in turn, pair after pair (the
// machine's load drifts; pairs see the same load), and each side's median is reported with the
// load average before and after. riskgate's side is the workspace source (tsx with the
// "@riskgate/source" condition), never a dist/ that may be stale.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv.splice(at, 2)[1];
};
const runs = Number(option('--runs', '5'));
const engines = new Set(option('--engines', 'postgres,mariadb,sqlite').split(','));
const oursScript = join(root, option('--ours', 'bench/sql-peers.bench.ts'));
const rows = Number(argv[0] ?? 1_000_000);
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
function timePeerOnce(command, args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}
function oursOnce(target, mode, sql) {
  const out = execFileSync(tsx, ['--conditions=@riskgate/source', oursScript, target, mode, sql ?? ''], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1));
}
/** Peer and riskgate in turn, `runs` pairs; the medians of each side and of the pairs' ratios. */
function pairs(peer, target, mode, sql) {
  const peerSamples = [];
  const samples = [];
  const ratios = [];
  for (let index = 0; index < runs; index++) {
    const peerMs = peer === undefined ? undefined : timePeerOnce(...peer);
    const mine = oursOnce(target, mode, sql);
    if (peerMs !== undefined) {
      peerSamples.push(peerMs);
      ratios.push(mine.ms / peerMs);
    }
    samples.push(mine);
  }
  const growth = samples.map((sample) => sample.rssGrowthMb).filter((value) => typeof value === 'number');
  return {
    ...samples.at(-1),
    peerMs: peer === undefined ? undefined : median(peerSamples),
    ms: median(samples.map((sample) => sample.ms)),
    assessMs: samples[0]?.assessMs === undefined ? undefined : median(samples.map((sample) => sample.assessMs)),
    pairRatio: ratios.length === 0 ? undefined : median(ratios),
    rssGrowthMb: growth.length === 0 ? null : Math.max(...growth),
  };
}

const loadBefore = loadavg()[0];
let loadAfter;
const results = [];
// The databases are dropped however the run ends (a failed run left two 1M-row databases behind).
try {
  console.error(`bench: creating ${rows.toLocaleString('en-US')}-row tables`);
  if (engines.has('postgres')) {
    psql('postgres', `DROP DATABASE IF EXISTS ${database}`);
    psql('postgres', `CREATE DATABASE ${database}`);
    psql(
      database,
      `CREATE TABLE big AS SELECT g AS id, g % 1000 AS grp, md5(g::text) AS payload FROM generate_series(1, ${rows}) g; ANALYZE big`,
    );
  }
  if (engines.has('mariadb'))
    maria(`DROP DATABASE IF EXISTS ${database}; CREATE DATABASE ${database}; USE ${database}; CREATE TABLE big (id INT PRIMARY KEY, grp INT, payload CHAR(32)) ENGINE=InnoDB;
  INSERT INTO big SELECT seq, seq % 1000, MD5(seq) FROM seq_1_to_${rows}`);
  execFileSync('sqlite3', [
    sqliteFile,
    `CREATE TABLE big (id INTEGER PRIMARY KEY, grp INT, payload TEXT);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT ${rows}) INSERT INTO big SELECT i, i % 1000, hex(randomblob(16)) FROM c;`,
  ]);

  const GROUP = 'SELECT grp, count(*), sum(id), max(payload) FROM big GROUP BY grp';
  const ALL = 'SELECT * FROM big';
  const measure = (engine, what, peerName, peer, target, mode, sql) => {
    if (!engines.has({ PostgreSQL: 'postgres', MariaDB: 'mariadb', SQLite: 'sqlite' }[engine])) return;
    console.error(`bench: ${engine} ${what}`);
    results.push({ engine, what, peerName, ...pairs(peer, target, mode, sql) });
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
} finally {
  if (engines.has('postgres')) psql('postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  if (engines.has('mariadb')) maria(`DROP DATABASE IF EXISTS ${database}`);
  loadAfter = loadavg()[0];
  rmSync(directory, { recursive: true, force: true });
}

console.error(JSON.stringify(results));
console.log(
  `${runs} pairs each (peer, then riskgate), medians; 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after.`,
);
const fixed = (value, digits = 1) => (value === undefined || value === null ? '' : value.toFixed(digits));
console.log(
  '| engine | statement | peer | peer | riskgate (run) | ratio | assessment | rows kept / total | RSS growth (whole process, drivers loaded) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const result of results) {
  // The median of the pairs' ratios: each pair ran under the same load.
  const ratio = result.pairRatio === undefined ? '' : `${fixed(result.pairRatio, 2)}×`;
  const kept =
    result.rows === undefined
      ? `${result.tables} tables`
      : `${result.rows} / ${result.total === null ? '?' : result.total.toLocaleString('en-US')}`;
  const peerMs = result.peerMs === undefined ? '' : `${fixed(result.peerMs)} ms`;
  const rss = result.rssGrowthMb === undefined || result.rssGrowthMb === null ? '' : `${fixed(result.rssGrowthMb)} MB`;
  console.log(
    `| ${result.engine} | ${result.what} | ${result.peerName ?? ''} | ${peerMs} | ${fixed(result.ms)} ms | ${ratio} | ${result.assessMs === undefined ? '' : `${fixed(result.assessMs, 2)} ms`} | ${kept} | ${rss} |`,
  );
}
