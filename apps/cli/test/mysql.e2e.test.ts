import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedModelServer, startScriptedModelServer } from '@riskgate/testing';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './run-cli.js';
import { TmuxTerminal } from './tmux.js';

/** `riskgate sql mysql://root@127.0.0.1:3306/<db>` on the real MariaDB, in a real terminal. */
const name = `riskgate_e2e_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
let admin: mysql.Connection;
let server: ScriptedModelServer | undefined;
let terminal: TmuxTerminal | undefined;
let directory: string;

beforeAll(async () => {
  admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', multipleStatements: true });
  await admin.query(`CREATE DATABASE ${name}; USE ${name};
    CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(20) NOT NULL) ENGINE=InnoDB;
    INSERT INTO orders VALUES (1, 'paid'), (2, 'paid'), (3, 'cancelled'), (4, 'pending');`);
  directory = mkdtempSync(join(tmpdir(), 'riskgate-e2e-mysql-'));
}, 30_000);
afterAll(async () => {
  terminal?.close();
  await server?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.end();
  rmSync(directory, { recursive: true, force: true });
});

const sql = (text: string) => ({ toolCalls: [{ name: 'execute_sql', arguments: { sql: text } }] });
const count = async () =>
  Number(((await admin.query(`SELECT count(*) AS n FROM ${name}.orders`))[0] as { n: number }[])[0]!.n);

describe('MySQL/MariaDB end to end', () => {
  it('the demo flow: a SELECT runs unasked, a DELETE is asked with its row count, n changes nothing', async () => {
    server = await startScriptedModelServer([
      sql('SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status'),
      { text: 'Two orders are paid.' },
      sql("DELETE FROM orders WHERE status = 'paid'"),
      { text: 'Nothing was deleted.' },
    ]);
    const env = {
      OPENAI_BASE_URL: server.baseURL,
      RISKGATE_MODEL: 'scripted-model',
      XDG_CONFIG_HOME: join(directory, 'config'),
      XDG_STATE_HOME: join(directory, 'state'),
      XDG_CACHE_HOME: join(directory, 'cache'),
    };
    terminal = new TmuxTerminal(`node ${BIN} sql mysql://root@127.0.0.1:3306/${name}`, env);
    await terminal.waitFor(/scripted-model/);
    terminal.type('How are the orders distributed?', true);
    const screen = await terminal.waitFor(/Two orders are paid\./);
    expect(screen).toMatch(/cancelled\s+│ 1/);
    expect(screen).not.toContain('Execute this query?');
    terminal.type('Delete the paid orders', true);
    const panel = await terminal.waitFor(/Execute this query\? \[y\/N\]/);
    expect(panel).toContain('would delete 2 rows of orders');
    await new Promise((resolve) => setTimeout(resolve, 500));
    terminal.type('n');
    await terminal.waitFor(/Nothing was deleted\./);
    expect(await count()).toBe(4);
    const system = String(server.requests[0]!.body.messages[0]!.content);
    expect(system).toContain('MySQL/MariaDB');
  }, 60_000);
});
