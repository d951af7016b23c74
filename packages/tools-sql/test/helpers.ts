import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import {
  type AnyTool,
  type AssessContext,
  type ExecuteContext,
  evaluateToolCall,
  type GatePolicy,
  judgeEffects,
  type ToolResult,
} from '@riskgate/risk';
import { type AssessSqlOptions, assessSql, type SqlRunResult } from '../src/index.js';
import Database from 'better-sqlite3';
import pg from 'pg';

/** The server the tests create their databases on (trust auth on the loopback). */
export const ADMIN_URL =
  process.env.RISKGATE_TEST_PG_URL ?? `postgres://${process.env.PGUSER ?? userInfo().username}@127.0.0.1:5432/postgres`;

export const SHOP_SCHEMA = `
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), status TEXT NOT NULL, total_cents INTEGER NOT NULL);
  CREATE INDEX orders_status ON orders(status);
  INSERT INTO customers (id, name) VALUES (1, 'Ada'), (2, 'Ben'), (3, 'Chloé');
  INSERT INTO orders (id, customer_id, status, total_cents) VALUES
    (1, 1, 'paid', 1200), (2, 1, 'pending', 800), (3, 2, 'paid', 4500), (4, 3, 'cancelled', 300), (5, 3, 'paid', 999);
`;

export interface TempSqlite {
  readonly path: string;
  count(table: string): number;
  cleanup(): void;
}

/** A real SQLite file in a fresh temporary directory, with the small shop schema. */
export function createTempSqlite(schema = SHOP_SCHEMA): TempSqlite {
  const directory = mkdtempSync(join(tmpdir(), 'riskgate-sql-'));
  const path = join(directory, 'shop.sqlite');
  const database = new Database(path);
  database.exec(schema);
  database.close();
  return {
    path,
    count(table) {
      const reader = new Database(path, { readonly: true });
      try {
        return (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      } finally {
        reader.close();
      }
    },
    cleanup: () => rmSync(directory, { recursive: true, force: true }),
  };
}

export interface TempPostgres {
  readonly url: string;
  count(table: string): Promise<number>;
  query(sql: string): Promise<pg.QueryResult>;
  cleanup(): Promise<void>;
}

/** A fresh PostgreSQL database on the real server, dropped by cleanup(). */
export async function createTempPostgres(schema = SHOP_SCHEMA): Promise<TempPostgres> {
  const name = `riskgate_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(schema);
  return {
    url: url.toString(),
    count: async (table) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n),
    query: (sql) => client.query(sql),
    cleanup: async () => {
      await client.end();
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export const SMART: GatePolicy = { mode: 'smart', rules: [] };

/**
 * One tool call as the agent loop makes it: validate, assess, decide; ask the person when the
 * gate says so (`answer`); run the call read-only when it is whitelisted (defence in depth).
 */
export async function callTool(
  tool: AnyTool,
  args: unknown,
  answer: 'yes' | 'no' | 'never-asked' = 'never-asked',
  policy = SMART,
) {
  const evaluation = await evaluateToolCall(tool, args, { cwd: process.cwd() }, policy);
  const { decision } = evaluation;
  let asked = false;
  let description: Awaited<ReturnType<AnyTool['describe']>> | undefined;
  if (!evaluation.valid || decision.action === 'deny') return { decision, asked, ran: false as const, description };
  if (decision.action === 'confirm') {
    asked = true;
    description = await tool.describe(evaluation.args, { cwd: process.cwd() }, evaluation.assessment.plan?.value);
    if (answer === 'never-asked')
      throw new Error(`the gate asked about ${JSON.stringify(args)}: ${decision.reasons.join('; ')}`);
    if (answer === 'no') return { decision, asked, ran: false as const, description };
  }
  const result = await tool.execute(
    evaluation.args,
    { cwd: process.cwd(), signal: new AbortController().signal, readOnly: evaluation.assessment.whitelisted },
    evaluation.assessment.plan?.value,
  );
  return { decision, asked, ran: true as const, result, description };
}

/** `describe` as the gated executor calls it: with the plan of one assessment of the same arguments. */
export async function describeCall(tool: AnyTool, args: unknown, context: AssessContext) {
  const { plan } = await tool.assess(args, context);
  return tool.describe(args, context, plan);
}

/** `execute` as the gated executor calls it: with the plan of one assessment of the same arguments. */
export async function executeCall(tool: AnyTool, args: unknown, context: ExecuteContext) {
  const { plan } = await tool.assess(args, context);
  return (await tool.execute(args, context, plan)) as ToolResult<SqlRunResult>;
}

/** The assessor's effects as the gate judges them: level, whitelisted, reasons. */
export async function judgeSql(sql: string, options: AssessSqlOptions) {
  const assessment = await assessSql(sql, options);
  return { ...assessment, ...judgeEffects(assessment.effects, { cwd: process.cwd() }) };
}

/** The MariaDB/MySQL server the tests create their databases on (root, no password, on the loopback). */
export const MYSQL_ADMIN_URL = process.env.RISKGATE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export interface TempMysql {
  readonly url: string;
  readonly name: string;
  /** Runs SQL as a plain client would (multi-statements ON): the oracle for what the server executes. */
  query(sql: string): Promise<unknown>;
  count(table: string): Promise<number>;
  cleanup(): Promise<void>;
}

/** A fresh database on the real MariaDB server, dropped by cleanup(). */
export async function createTempMysql(schema = SHOP_SCHEMA): Promise<TempMysql> {
  const mysql = (await import('mysql2/promise')).default;
  const name = `riskgate_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new URL(MYSQL_ADMIN_URL);
  const client = await mysql.createConnection({
    host: admin.hostname,
    port: Number(admin.port || 3306),
    user: decodeURIComponent(admin.username) || 'root',
    password: decodeURIComponent(admin.password),
    multipleStatements: true,
  });
  await client.query(`CREATE DATABASE ${name}`);
  await client.query(`USE ${name}`);
  if (schema.trim() !== '') await client.query(schema);
  const url = new URL(MYSQL_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    query: async (sql) => (await client.query(sql))[0],
    count: async (table) =>
      Number(((await client.query(`SELECT count(*) AS n FROM ${table}`))[0] as { n: number }[])[0]!.n),
    cleanup: async () => {
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.end();
    },
  };
}
