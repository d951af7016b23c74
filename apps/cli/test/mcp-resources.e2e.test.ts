import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connectMcp, type McpTransportKind } from './mcp-client.js';

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-resources-'));
afterEach(closeAll);

const SECRET = 'hunter2-correct-horse-battery-staple';
const suffix = `${process.pid}`;
const ACCOUNTS = `mcp_accounts_${suffix}`;
const ORDERS = `mcp_orders_${suffix}`;

/** Two tables with a key, a foreign key and a credential column, and rows no resource may show. */
const schema = (integerKey: string, text: string) => [
  `CREATE TABLE ${ACCOUNTS} (id ${integerKey} PRIMARY KEY, login ${text} NOT NULL, password ${text})`,
  `CREATE TABLE ${ORDERS} (id ${integerKey} PRIMARY KEY, account_id INTEGER REFERENCES ${ACCOUNTS}(id), item ${text})`,
  `INSERT INTO ${ACCOUNTS} (id, login, password) VALUES (1, 'ada-lovelace', '${SECRET}')`,
  `INSERT INTO ${ORDERS} (id, account_id, item) VALUES (1, 1, 'earl-grey-tea')`,
];

const sqlitePath = join(root, 'shop.sqlite');
const PG_URL = process.env.RISKGATE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.RISKGATE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

beforeAll(async () => {
  const database = new Database(sqlitePath);
  for (const statement of schema('INTEGER', 'TEXT')) database.exec(statement);
  database.close();
  const postgres = new pg.Client({ connectionString: PG_URL });
  await postgres.connect();
  for (const statement of schema('INTEGER', 'TEXT')) await postgres.query(statement);
  await postgres.end();
  const maria = await mysql.createConnection(MYSQL_URL);
  for (const statement of schema('INTEGER', 'VARCHAR(100)')) await maria.query(statement);
  await maria.end();
});

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  const postgres = new pg.Client({ connectionString: PG_URL });
  await postgres.connect();
  await postgres.query(`DROP TABLE IF EXISTS ${ORDERS}, ${ACCOUNTS}`);
  await postgres.end();
  const maria = await mysql.createConnection(MYSQL_URL);
  await maria.query(`DROP TABLE IF EXISTS ${ORDERS}, ${ACCOUNTS}`);
  await maria.end();
});

let index = 0;
const connect = (database: string, transport: McpTransportKind = 'stdio', extra: readonly string[] = []) => {
  const home = join(root, `home-${index++}`);
  mkdirSync(home, { recursive: true });
  return connectMcp(['--db', database, ...extra], { cwd: home, home, transport });
};

describe.each([
  ['SQLite', sqlitePath, 'stdio'],
  ['PostgreSQL', PG_URL, 'stdio'],
  ['MariaDB', MYSQL_URL, 'stdio'],
  ['SQLite', sqlitePath, 'http'],
] as const)('riskgate mcp --db %s: the schema as resources (%s)', (_engine, database, transport) => {
  it('lists the whole schema and one resource per table, and a template', async () => {
    const { client } = await connect(database, transport);
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris[0]).toBe('riskgate://schema');
    expect(uris).toContain(`riskgate://schema/${ACCOUNTS}`);
    expect(uris).toContain(`riskgate://schema/${ORDERS}`);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'riskgate://schema/{table}' })]);
  });

  it('reads a table: columns, types, keys — and no row data', async () => {
    const { client } = await connect(database, transport);
    const { contents } = await client.readResource({ uri: `riskgate://schema/${ORDERS}` });
    const read = (contents[0] as { text: string }).text;
    expect(contents[0]).toMatchObject({ uri: `riskgate://schema/${ORDERS}`, mimeType: 'text/plain' });
    expect(read).toContain(ORDERS);
    expect(read).toMatch(/account_id/);
    expect(read).toMatch(/item/);
    expect(read).toMatch(/int/i);
    expect(read).toMatch(/primary key|\bPK\b|id.*key/i);
    expect(read).toContain(ACCOUNTS); // the foreign key
    expect(read).not.toContain('earl-grey-tea');
  });

  it('reads the whole schema without a row or a credential', async () => {
    const { client } = await connect(database, transport);
    const { contents } = await client.readResource({ uri: 'riskgate://schema' });
    const read = JSON.stringify(contents);
    expect(read).toContain(ACCOUNTS);
    expect(read).toContain('password');
    for (const value of [SECRET, 'hunter2', 'ada-lovelace', 'earl-grey-tea']) expect(read).not.toContain(value);
  });
});

describe('schema resources and the gate', () => {
  it.each([
    ['a URI of another scheme', 'file:///etc/passwd', /no resource/],
    ['an empty table name', 'riskgate://schema/', /no resource/],
    ['a table that does not exist', 'riskgate://schema/no_such_table', /no_such_table/],
    ['a malformed escape', 'riskgate://schema/%E0%A4%A', /no resource/],
  ])('refuses %s with a clear error', async (_name, uri, message) => {
    const { client } = await connect(sqlitePath);
    await expect(client.readResource({ uri })).rejects.toThrow(message);
  });

  it('a deny rule on describe_schema refuses the reads and hides the table names', async () => {
    const { client } = await connect(sqlitePath, 'stdio', ['--deny', 'describe_schema']);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['riskgate://schema']);
    await expect(client.readResource({ uri: `riskgate://schema/${ORDERS}` })).rejects.toThrow(/denied by rule/);
  });

  it("follows the client's root: its .riskgate/ deny rule on describe_schema holds for the resources", async () => {
    const home = join(root, `home-${index++}`);
    const project = join(home, 'project');
    mkdirSync(join(project, '.riskgate'), { recursive: true });
    writeFileSync(join(project, '.riskgate', 'config.json'), JSON.stringify({ rules: { deny: ['describe_schema'] } }));
    const { client } = await connectMcp(['--db', sqlitePath], {
      cwd: home,
      home,
      roots: [{ uri: pathToFileURL(project).href }],
    });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['riskgate://schema']);
    await expect(client.readResource({ uri: 'riskgate://schema' })).rejects.toThrow(/denied by rule describe_schema/);
  });

  it('serves no resources without --db', async () => {
    const home = join(root, `home-${index++}`);
    mkdirSync(home, { recursive: true });
    const { client } = await connectMcp(['--commands'], { cwd: home, home });
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
  });
});
