import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecuteSqlTool, isSqlFailure, openSqlConnection } from '../src/index.js';
import { callTool } from './helpers.js';

// riskgate killed while a confirmed SQLite write ran (its writer process dies with it) leaves a
// hot journal. The next session's whitelisted reads use read-only connections, which cannot roll
// it back: every SELECT failed "attempt to write a readonly database" until something wrote.
const directory = mkdtempSync(join(tmpdir(), 'riskgate-hot-journal-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('a database a killed writer left with a hot journal', () => {
  it('is recovered when riskgate opens it, and a whitelisted SELECT reads the rows as before the write', async () => {
    const path = join(directory, 'shop.sqlite');
    const script = join(directory, 'killed-writer.cjs');
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    writeFileSync(
      script,
      `const Database = require(${JSON.stringify(driver)});
const db = new Database(${JSON.stringify(path)});
db.exec('CREATE TABLE t (x); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000) INSERT INTO t SELECT 1 FROM c');
db.close();
const writer = new Database(${JSON.stringify(path)});
writer.pragma('cache_size = 10');
writer.exec('BEGIN; UPDATE t SET x = randomblob(100);');
process.kill(process.pid, 'SIGKILL');`,
    );
    try {
      execFileSync(process.execPath, [script]);
    } catch {
      // Killed, as intended.
    }
    expect(existsSync(`${path}-journal`)).toBe(true);
    const opened = await openSqlConnection(path);
    if (isSqlFailure(opened)) throw new Error(opened.message);
    try {
      const outcome = await callTool(createExecuteSqlTool({ connection: opened }), {
        sql: 'SELECT count(*) AS n, sum(x) AS total FROM t',
      });
      expect(outcome.ran && outcome.result.type === 'tool-success' && outcome.result.forModel).toMatch(
        /20000 \| 20000/,
      );
    } finally {
      await opened.close();
    }
  });
});
