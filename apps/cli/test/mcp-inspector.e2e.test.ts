import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, startHttpServer, TEST_TOKEN, testEnv, track } from './mcp-client.js';
import { BIN } from './run-cli.js';

/**
 * The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli), a third-party client, against
 * `riskgate mcp` over stdio and Streamable HTTP.
 */
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'cli.js',
);

const root = mkdtempSync(join(tmpdir(), 'riskgate-mcp-inspector-'));
// inspector-cli 1.0.3 reads its own package.json through a path it checks against the working
// directory ("../package.json"): it runs from a folder whose parent has one.
const cwd = join(root, 'run');
const databasePath = join(root, 'shop.sqlite');
beforeAll(() => {
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(root, 'package.json'), '{}');
  const database = new Database(databasePath);
  database.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT); INSERT INTO orders (item) VALUES ('tea');");
  database.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);

const tableExists = () => {
  const database = new Database(databasePath, { readonly: true });
  try {
    return database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'orders'").get() !== undefined;
  } finally {
    database.close();
  }
};

function inspect(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', ...args],
      { cwd, env: testEnv(root), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

const listTools = ['--method', 'tools/list'];
const dropLow = [
  '--method',
  'tools/call',
  '--tool-name',
  'execute_sql',
  '--tool-arg',
  'sql=DROP TABLE orders',
  'risk_level=low',
];

// Each inspect starts a node process with the SDK (and over stdio a riskgate): slow under CI's load.
describe('the MCP Inspector CLI against riskgate mcp', { timeout: 120_000 }, () => {
  it('over stdio: tools/list shows titles, annotations and output schemas; a DROP rated low is refused', async () => {
    const listed = await inspect([process.execPath, BIN, 'mcp', '--db', databasePath, ...listTools]);
    expect(listed.code, listed.stderr).toBe(0);
    const { tools } = JSON.parse(listed.stdout);
    const executeSql = tools.find((tool: { name: string }) => tool.name === 'execute_sql');
    expect(executeSql).toMatchObject({ title: 'Run SQL', annotations: { destructiveHint: true, readOnlyHint: false } });
    expect(executeSql.outputSchema.required).toEqual(['state', 'text']);
    const called = await inspect([process.execPath, BIN, 'mcp', '--db', databasePath, ...dropLow]);
    const result = JSON.parse(called.stdout);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      state: 'denied',
      decision: { action: 'confirm', source: 'guard' },
    });
    expect(tableExists()).toBe(true);
  });

  it('over Streamable HTTP: with the token it lists and calls; without it, or with a wrong one, it gets nothing', async () => {
    const server = await startHttpServer(
      ['--db', databasePath],
      cwd,
      testEnv(root, { RISKGATE_MCP_TOKEN: TEST_TOKEN }),
    );
    track(server.child);
    const header = ['--transport', 'http', '--header', `Authorization: Bearer ${TEST_TOKEN}`];
    const listed = await inspect([server.url, ...header, ...listTools]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tools.map((tool: { name: string }) => tool.name)).toEqual([
      'execute_sql',
      'describe_schema',
    ]);
    const called = await inspect([server.url, ...header, ...dropLow]);
    expect(JSON.parse(called.stdout)).toMatchObject({ isError: true, structuredContent: { state: 'denied' } });
    expect(tableExists()).toBe(true);
    const select = [
      '--method',
      'tools/call',
      '--tool-name',
      'execute_sql',
      '--tool-arg',
      'sql=SELECT item FROM orders',
    ];
    expect(JSON.parse((await inspect([server.url, ...header, ...select])).stdout).content[0].text).toContain('tea');
    for (const headers of [[], ['--header', 'Authorization: Bearer wrong-token-0123456789']]) {
      const refused = await inspect([server.url, '--transport', 'http', ...headers, ...listTools]);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).not.toContain('execute_sql');
      expect(refused.stderr).toMatch(/401|bearer token/i);
    }
  });
});
