import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FaultProxy, type ScriptedReply, startFaultProxy, startScriptedModelServer } from '@riskgate/testing';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { e2eScene, settle } from './e2e-setup.js';
import { BIN } from './run-cli.js';

// Issue 19 under the real binary: SIGTERM while riskgate waits (on a confirmed write that does not
// end, on the person) ends the session with the signal's exit code and an audit line that tells the
// truth, never a hang; an HTTP write whose answer never comes is "outcome unknown" end to end.
const scratch = mkdtempSync(join(tmpdir(), 'riskgate-sigterm-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sql = (text: string): ScriptedReply => ({ toolCalls: [{ name: 'execute_sql', arguments: { sql: text } }] });
const jsonLines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line))
    : [];

async function runUntilStartedThenTerm(
  args: string[],
  directory: string,
  baseURL: string,
): Promise<{ code: number | null; signal: string | null; afterTermMs: number }> {
  const audit = join(directory, 'state', 'riskgate', 'audit.jsonl');
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      OPENAI_BASE_URL: baseURL,
      RISKGATE_MODEL: 'scripted-model',
      XDG_CONFIG_HOME: join(directory, 'config'),
      XDG_STATE_HOME: join(directory, 'state'),
      XDG_CACHE_HOME: join(directory, 'cache'),
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 30_000;
  while (!jsonLines(audit).some((line) => line.outcome === 'started') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  // Well inside the statement: it runs, and riskgate waits on it.
  await new Promise((resolve) => setTimeout(resolve, 700));
  const term = Date.now();
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const result = await exited;
  clearTimeout(kill);
  return { ...result, afterTermMs: Date.now() - term };
}

describe('SIGTERM during a confirmed write that does not end', { timeout: 90_000 }, () => {
  it('SQLite: an endless confirmed UPDATE is stopped, the session exits 143, and the audit says cancelled (nothing changed)', async () => {
    const directory = join(scratch, 'sqlite');
    mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
    writeFileSync(
      join(directory, 'config', 'riskgate', 'config.json'),
      JSON.stringify({ sql: { statementTimeoutMs: 120_000 } }),
    );
    const path = join(directory, 'shop.sqlite');
    const database = new Database(path);
    database.exec(
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, total INTEGER); INSERT INTO orders VALUES (1, 10), (2, 20);',
    );
    database.close();
    const server = await startScriptedModelServer([
      sql(
        'UPDATE orders SET total = (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT max(i) FROM c) WHERE id = 1',
      ),
      { text: 'Done.' },
    ]);
    const result = await runUntilStartedThenTerm(
      ['sql', '--db', path, '-p', '--yes', 'raise it'],
      directory,
      server.baseURL,
    );
    await server.close();
    expect(result).toMatchObject({ code: 143 });
    expect(result.afterTermMs).toBeLessThan(20_000);
    const audit = jsonLines(join(directory, 'state', 'riskgate', 'audit.jsonl'));
    expect(audit.map((entry) => [entry.outcome, entry.errorCode])).toEqual([
      ['started', undefined],
      ['cancelled', 'sql-cancelled'],
    ]);
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT total FROM orders WHERE id = 1').get()).toEqual({ total: 10 });
    check.close();
  });

  it('PostgreSQL behind a stalled network: the session exits 143 within its bounds, and the audit line matches what the database holds', async () => {
    const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
    await admin.connect();
    const name = `riskgate_sigterm_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const proxy: FaultProxy = await startFaultProxy({ host: '127.0.0.1', port: 5432 });
    try {
      const setup = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
      await setup.connect();
      await setup.query(
        'CREATE TABLE orders (id int PRIMARY KEY, total int NOT NULL); INSERT INTO orders VALUES (1, 10), (2, 20);',
      );
      await setup.end();
      const directory = join(scratch, 'postgres');
      mkdirSync(join(directory, 'config', 'riskgate'), { recursive: true });
      writeFileSync(
        join(directory, 'config', 'riskgate', 'config.json'),
        JSON.stringify({ sql: { statementTimeoutMs: 120_000 } }),
      );
      const server = await startScriptedModelServer([sql('UPDATE orders SET total = total + 1'), { text: 'Done.' }]);
      // The preview sends the UPDATE first; the run is the second time. Its replies never come back.
      proxy.whenSent('UPDATE orders', 'stall-replies', { occurrence: 2 });
      const result = await runUntilStartedThenTerm(
        ['sql', `postgres://postgres@127.0.0.1:${proxy.port}/${name}`, '-p', '--yes', 'raise them'],
        directory,
        server.baseURL,
      );
      await server.close();
      expect(result).toMatchObject({ code: 143 });
      expect(result.afterTermMs).toBeLessThan(25_000);
      const audit = jsonLines(join(directory, 'state', 'riskgate', 'audit.jsonl'));
      expect(audit[0]).toMatchObject({ outcome: 'started' });
      expect(audit).toHaveLength(2);
      // Rolled back (the server confirms) or unknown — never "cancelled" or "failed" while it may have committed.
      const check = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
      await check.connect();
      const total = Number((await check.query('SELECT sum(total) AS n FROM orders')).rows[0].n);
      await check.end();
      if (total === 32) expect(audit[1]).toMatchObject({ outcome: expect.stringMatching(/^(succeeded|unknown)$/) });
      else
        expect(
          audit[1].outcome === 'unknown' ||
            audit[1].errorCode === 'sql-connection-failed' ||
            audit[1].outcome === 'cancelled',
        ).toBe(true);
    } finally {
      await proxy.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

/** The pid of the riskgate running in `directory`. */
function riskgateIn(directory: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (
        readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('riskgate.js') &&
        readlinkSync(`/proc/${entry}/cwd`) === directory
      )
        return Number(entry);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return undefined;
}

describe('SIGTERM while the person is being asked', { timeout: 60_000 }, () => {
  const scene = e2eScene();
  it.each([
    ['the TUI panel', false],
    ['the headless question on a terminal', true],
  ] as const)('%s: exit 143, an audit line, nothing ran', async (_name, headless) => {
    const { directory, env } = await scene.start([
      { toolCalls: [{ name: 'execute_command', arguments: { command: 'touch made.txt' } }] },
      { text: 'unused' },
    ]);
    const terminal = scene.open(`sh -c 'cd ${directory} && exec node ${BIN}${headless ? ' -p "make it"' : ''}'`, env);
    if (!headless) {
      await terminal.waitFor(/chat · smart · scripted-model/);
      await settle();
      terminal.type('make it', true);
    }
    await terminal.waitFor(/touch made\.txt/);
    await settle();
    const pid = riskgateIn(directory);
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGTERM');
    await terminal.waitFor(/\[exited 143\]/, 20_000);
    expect(existsSync(join(directory, 'made.txt'))).toBe(false);
    const audit = jsonLines(join(env.XDG_STATE_HOME, 'riskgate', 'audit.jsonl'));
    expect(audit.map((entry) => entry.outcome)).toEqual(['cancelled']);
  });
});

describe('an HTTP write whose answer never comes, through the real binary', { timeout: 60_000 }, () => {
  it('is told to the model as "outcome unknown" and audited unknown, never a plain failure', async () => {
    const received: string[] = [];
    const api = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      // The server acts on the payment, then the connection drops before its answer.
      request.on('end', () => {
        received.push(body);
        request.socket.destroy();
        void response;
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const port = (api.address() as AddressInfo).port;
    const directory = join(scratch, 'http');
    mkdirSync(directory, { recursive: true });
    const server = await startScriptedModelServer([
      {
        toolCalls: [
          {
            name: 'http_request',
            arguments: { method: 'POST', url: `http://127.0.0.1:${port}/payments`, body: '{"amount":100}' },
          },
        ],
      },
      { text: 'I cannot tell whether it was paid.' },
    ]);
    const child = spawn(process.execPath, [BIN, '-p', '--yes', 'pay it'], {
      cwd: directory,
      env: {
        ...process.env,
        OPENAI_BASE_URL: server.baseURL,
        RISKGATE_MODEL: 'scripted-model',
        XDG_CONFIG_HOME: join(directory, 'config'),
        XDG_STATE_HOME: join(directory, 'state'),
        XDG_CACHE_HOME: join(directory, 'cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    await server.close();
    api.close();
    expect(received).toEqual(['{"amount":100}']);
    expect(code).toBe(0);
    expect(stdout).toContain('I cannot tell whether it was paid.');
    const told = String(server.requests[1]!.body.messages.at(-1)!.content);
    expect(told).toMatch(
      /^error \(http-outcome-unknown\): outcome unknown: the POST to 127\.0\.0\.1:\d+ was sent and the connection failed .*Check before retrying/,
    );
    const audit = jsonLines(join(directory, 'state', 'riskgate', 'audit.jsonl'));
    expect(audit.map((entry) => [entry.outcome, entry.errorCode])).toEqual([
      ['started', undefined],
      ['unknown', 'http-outcome-unknown'],
    ]);
  });
});
